import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";

// The CLI as a bundle, built after `tsc -b` by `npm run build` (docs/performance.md, "CLI
// start-up"). Node 20 resolves, reads and compiles each ES module on its own, with no code cache:
// a command's 300 to 700 modules cost most of its start. The bundle is a few files, each
// command's modules in a chunk of their own loaded when the command runs, and zod without the
// locales and JSON Schema converters we never call.
//
// The chunks are minified, whitespace and syntax only: 4.2 MB of JavaScript becomes 2.7 MB for
// V8 to read at start. Identifiers are not renamed, but a function or class expression's own
// name goes where nothing inside it uses it (three of ours, seen only in a stack trace). The
// source maps beside them give the sources' lines (`node --enable-source-maps`).
//
// dist/ keeps tsc's module for every source: the chart worker runs from it, and the tests import
// it. dist/cli.js, the package's bin, is replaced by a line that imports the bundle's entry.

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = "dist/cli-bundle";

/**
 * Pure JavaScript that commands load: at start (zod, yaml, luxon, commander, cron-parser), or for
 * a digest (pino, the API client's undici, exceljs and its zip with some 250 modules,
 * nodemailer's mail composer). The others stay in node_modules: native (SQLite, resvg), run in
 * the chart worker (Vega), or loaded by the daemon alone (Slack's SDKs, pg, prom-client), and
 * pino-pretty, for a terminal. pino's transports, which run a worker from pino's own folder,
 * are never used: the log goes to a stream.
 */
const BUNDLED = new Set([
  "zod",
  "yaml",
  "luxon",
  "commander",
  "cron-parser",
  "pino",
  "undici",
  "exceljs",
  "nodemailer",
]);

const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as {
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};
const external = Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

/**
 * Every module keeps the URL it has as tsc builds it (dist/<its path>.js): the fonts, chart
 * specs, the chart worker, the demo's config and package.json are found beside it as before.
 */
const moduleUrls: Plugin = {
  name: "module-urls",
  setup(bundle) {
    bundle.onLoad({ filter: /[/\\]src[/\\].*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      if (!source.includes("import.meta.url")) return undefined;
      const built = relative(`${ROOT}src`, args.path).replaceAll("\\", "/").replace(/\.ts$/, ".js");
      const url = `new URL(${JSON.stringify(`../${built}`)}, import.meta.url).href`;
      return { contents: source.replaceAll("import.meta.url", url), loader: "ts" };
    });
  },
};

/** cron-parser requires luxon's CommonJS build, we import its ES build: one copy is enough. */
const oneLuxon: Plugin = {
  name: "one-luxon",
  setup(bundle) {
    bundle.onResolve({ filter: /^luxon$/ }, (args) =>
      args.kind === "require-call"
        ? bundle.resolve("luxon", { kind: "import-statement", resolveDir: args.resolveDir })
        : undefined,
    );
  },
};

/**
 * archiver-utils (exceljs's zip) still calls `new Buffer`, deprecated: Node warns of it once a
 * process (DEP0005) unless the caller is in node_modules, which bundled code no longer is.
 */
const noBufferConstructor: Plugin = {
  name: "no-buffer-constructor",
  setup(bundle) {
    bundle.onLoad({ filter: /[/\\]archiver-utils[/\\]index\.js$/ }, (args) => ({
      contents: readFileSync(args.path, "utf8")
        .replaceAll("new Buffer(0)", "Buffer.alloc(0)")
        .replaceAll("new Buffer(size)", "Buffer.alloc(size)")
        .replaceAll("new Buffer(source)", "Buffer.from(source)"),
      loader: "js",
    }));
  },
};

/**
 * What archiver (exceljs's zip) requires and the streaming writer never reaches: the writer
 * calls only `append` and `finalize`, archiver's zip format over zip-stream. Each of these is
 * replaced by a module that throws if it is ever used.
 */
const ARCHIVER_UNUSED = [
  // archiver's `directory` and `glob` (readdir-glob, minimatch).
  { importer: /\/node_modules\/archiver\/lib\//, request: /^readdir-glob$/ },
  // archiver-utils' files and folders on disk (glob, lodash's array helpers, lazystream and
  // graceful-fs with their own readable-stream), in both copies: archiver's and zip-stream's.
  {
    importer: /\/node_modules\/(zip-stream\/node_modules\/)?archiver-utils\//,
    request: /^(lazystream|graceful-fs|\.\/file\.js)$/,
  },
];

/**
 * archiver for exceljs's streaming writer alone: its zip format, not tar (tar-stream) or JSON;
 * of async only `queue` (the whole library is 220 KB in one file); none of ARCHIVER_UNUSED. The
 * writer's chunk is 0.23 MB instead of 0.57, and importing it takes ~20 ms of CPU instead of ~28
 * (docs/performance.md, "CLI start-up, 2026-11-28 (second session)").
 */
const archiverForStreamingWriter: Plugin = {
  name: "archiver-for-streaming-writer",
  setup(bundle) {
    const from = (args: { importer: string }) => args.importer.replaceAll("\\", "/");
    bundle.onLoad({ filter: /[/\\]node_modules[/\\]archiver[/\\]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const zipOnly = source.replace(/^vending\.registerFormat\('(tar|json)'.*$/gm, "");
      if (zipOnly.length === source.length)
        throw new Error(`${args.path}: no tar format to leave out`);
      return { contents: zipOnly, loader: "js" };
    });
    bundle.onResolve({ filter: /^async$/ }, (args) =>
      /\/node_modules\/archiver\//.test(from(args))
        ? { path: args.resolveDir, namespace: "archiver-async" }
        : undefined,
    );
    bundle.onLoad({ filter: /.*/, namespace: "archiver-async" }, (args) => ({
      contents: 'exports.queue = require("async/queue.js");',
      resolveDir: args.path,
      loader: "js",
    }));
    bundle.onResolve({ filter: /.*/ }, (args) =>
      ARCHIVER_UNUSED.some((u) => u.importer.test(from(args)) && u.request.test(args.path))
        ? { path: args.path, namespace: "archiver-unused" }
        : undefined,
    );
    bundle.onLoad({ filter: /.*/, namespace: "archiver-unused" }, (args) => {
      const error = JSON.stringify(
        `${args.path} is left out of the CLI's bundle (scripts/bundle-cli.ts)`,
      );
      return {
        contents: `const fail = () => { throw new Error(${error}); };
module.exports = new Proxy(function () {}, { get: fail, apply: fail, construct: fail });`,
        loader: "js",
      };
    });
  },
};

/**
 * Node's modules that a bundled package requires at its top but calls only on a path the CLI
 * never takes, each ~2-5 ms to load at start: commander's `child_process` (for subcommands run
 * as executables of their own) is loaded on its first use, and undici's `http2` (for HTTP/2,
 * which no dispatcher of ours allows) is left out as undici leaves it out where Node has none:
 * `{ constants: {} }`, with a `connect` that says why it fails.
 */
const BUILTINS_ON_FIRST_USE = [
  { importer: /\/node_modules\/commander\//, request: "node:child_process", mode: "lazy" },
  {
    importer: /\/node_modules\/undici\/lib\/dispatcher\/client-h2\.js$/,
    request: "node:http2",
    mode: "absent",
  },
] as const;

const builtinsOnFirstUse: Plugin = {
  name: "builtins-on-first-use",
  setup(bundle) {
    const replaced = new Set<string>();
    bundle.onResolve({ filter: /^node:(child_process|http2)$/ }, (args) => {
      const importer = args.importer.replaceAll("\\", "/");
      const use = BUILTINS_ON_FIRST_USE.find(
        (u) => u.request === args.path && u.importer.test(importer),
      );
      if (!use) return undefined;
      replaced.add(use.request);
      return { path: args.path, namespace: `builtin-${use.mode}` };
    });
    // A package that no longer requires the module as listed would keep it loaded, silently.
    bundle.onEnd(() => {
      const missed = BUILTINS_ON_FIRST_USE.filter((u) => !replaced.has(u.request));
      if (missed.length > 0) {
        throw new Error(`not required as listed: ${missed.map((u) => u.request).join(", ")}`);
      }
    });
    bundle.onLoad({ filter: /.*/, namespace: "builtin-lazy" }, (args) => ({
      contents: `let real;
const load = () => (real ??= require(${JSON.stringify(args.path)}));
module.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });`,
      loader: "js",
    }));
    bundle.onLoad({ filter: /.*/, namespace: "builtin-absent" }, (args) => {
      const error = JSON.stringify(
        `${args.path} is left out of the CLI's bundle (scripts/bundle-cli.ts)`,
      );
      return {
        contents: `exports.constants = {};
exports.connect = () => { throw new Error(${error}); };`,
        loader: "js",
      };
    });
  },
};

/** Builds dist/cli-bundle/ from src/cli.ts and points dist/cli.js at it. */
export async function bundleCli(): Promise<void> {
  rmSync(`${ROOT}${OUT}`, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: { cli: "src/cli.ts" },
    outdir: OUT,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20.19",
    chunkNames: "[name]-[hash]",
    sourcemap: true,
    minifyWhitespace: true,
    minifySyntax: true,
    external,
    plugins: [
      moduleUrls,
      oneLuxon,
      noBufferConstructor,
      archiverForStreamingWriter,
      builtinsOnFirstUse,
    ],
    // The CommonJS packages bundled (yaml, commander, cron-parser) require Node's modules.
    banner: {
      js: 'import { createRequire as __bundleRequire } from "node:module"; const require = __bundleRequire(import.meta.url);',
    },
    logLevel: "warning",
  });
  writeFileSync(
    `${ROOT}dist/cli.js`,
    "#!/usr/bin/env node\n// The CLI's bundle (scripts/bundle-cli.ts); tsc's modules beside this file are its sources.\nimport './cli-bundle/cli.js';\n",
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await bundleCli();
