import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { tryLoadConfig, tryParseConfigText } from "../../src/config/load-config.js";
import { fullEnv } from "../config/config-builders.js";

// README is the user's path and the manual lives in docs/ (STYLE.md item 13). Moving text
// between pages breaks links and anchors silently, and an example config that no longer loads
// is worse than none; this file reads the pages as a reader would and fails on either.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const README_MAX_LINES = 300;
const DECISION_MAX_LINES = 100;
/** Put on the line before a ```yaml block that shows part of a config, not a whole one. */
const FRAGMENT_MARK = "<!-- config fragment -->";

/** README.md, ARCHITECTURE.md when there is one, and every page under docs/, repo-relative. */
function markdownPages(): string[] {
  const top = ["README.md", "ARCHITECTURE.md"].filter((page) => existsSync(join(ROOT, page)));
  const docs = readdirSync(join(ROOT, "docs"), { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".md"))
    .map((path) => join("docs", path))
    .sort();
  return [...top, ...docs];
}

function read(page: string): string {
  return readFileSync(join(ROOT, page), "utf8");
}

/** `wc -l`: the number of line ends. */
function lineCount(text: string): number {
  return text.match(/\n/g)?.length ?? 0;
}

/** The text with fenced code blocks blanked (line numbers kept), so nothing in them counts. */
function withoutFences(text: string): string {
  let fence: string | null = null;
  return text
    .split("\n")
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === null && marker) {
        fence = marker;
        return "";
      }
      if (fence !== null) {
        if (marker?.startsWith(fence) && line.trim() === marker) fence = null;
        return "";
      }
      return line;
    })
    .join("\n");
}

/** GitHub's anchor for a heading: its text lowercased, punctuation but - dropped, spaces to -. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[`*]/g, "");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a page's headings make, a repeated heading's with -1, -2… as GitHub numbers them. */
function anchorsOf(page: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(read(page)).split("\n")) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

interface Link {
  page: string;
  line: number;
  target: string;
}

/** The relative links and images of a page, outside code: `[text](target)`, `![alt](target)`. */
function relativeLinks(page: string): Link[] {
  const text = withoutFences(read(page)).replace(/`[^`\n]*`/g, (code) => "x".repeat(code.length));
  const links: Link[] = [];
  for (const match of text.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = match[1] ?? "";
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const line = lineCount(text.slice(0, match.index)) + 1;
    links.push({ page, line, target });
  }
  return links;
}

/** What is wrong with a link, or null when its file exists and its anchor is a heading there. */
function brokenLink({ page, target }: Link): string | null {
  const [path = "", anchor] = target.split("#", 2);
  const file = path === "" ? page : join(path.startsWith("/") ? "" : dirname(page), path);
  const absolute = join(ROOT, decodeURIComponent(file));
  if (relative(ROOT, absolute).startsWith("..")) return `${file} is outside the repository`;
  if (!existsSync(absolute)) return `${file} does not exist`;
  if (anchor === undefined) return null;
  if (!file.endsWith(".md") || statSync(absolute).isDirectory()) {
    return `#${anchor} points into ${file}, which has no headings`;
  }
  const anchors = anchorsOf(file);
  return anchors.has(decodeURIComponent(anchor).toLowerCase())
    ? null
    : `${file} has no heading #${anchor} (it has ${[...anchors].join(", ")})`;
}

interface YamlBlock {
  page: string;
  line: number;
  text: string;
  fragment: boolean;
}

/** Every ```yaml block of a page, un-indented (a block in a list item is indented with it). */
function yamlBlocks(page: string): YamlBlock[] {
  const lines = read(page).split("\n");
  const blocks: YamlBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})ya?ml\s*$/.exec(lines[i] ?? "");
    if (!open) continue;
    const [, indent = "", fence = ""] = open;
    const end = lines.findIndex((line, j) => j > i && line.trim() === fence);
    if (end < 0) throw new Error(`${page}:${i + 1}: a yaml block that is never closed`);
    const body = lines.slice(i + 1, end).map((line) => line.slice(indent.length));
    const fragment = lines[i - 1]?.trim() === FRAGMENT_MARK;
    blocks.push({ page, line: i + 1, text: `${body.join("\n")}\n`, fragment });
    i = end;
  }
  return blocks;
}

/** The test environment, with a plausible value for every `${NAME}` the config refers to. */
function envFor(text: string): NodeJS.ProcessEnv {
  const env = fullEnv({
    SLACK_APP_TOKEN: "xapp-1-A0123-test",
    DATABASE_URL: "postgres://reporter:db-pass@127.0.0.1:5432/reporter",
  });
  for (const [, name = ""] of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    env[name] ??= /URL$/.test(name)
      ? `https://hooks.example.com/${name.toLowerCase()}`
      : `test-${name.toLowerCase()}-0001`;
  }
  return env;
}

function describeIssues(issues: readonly { path: string; message: string }[]): string {
  return issues.map((issue) => `${issue.path || "(file)"}: ${issue.message}`).join("; ");
}

const PAGES = markdownPages();

describe("the documentation's links", () => {
  it("finds the pages it checks", () => {
    expect(PAGES).toEqual(expect.arrayContaining(["README.md", join("docs", "running.md")]));
    expect(PAGES.filter((page) => page.startsWith(join("docs", "decisions"))).length).toBe(10);
  });

  it("resolves every relative link to a file, and every #anchor to a heading there", () => {
    const links = PAGES.flatMap(relativeLinks);
    expect(links.length).toBeGreaterThan(50);
    const broken = links.flatMap((link) => {
      const problem = brokenLink(link);
      return problem === null ? [] : [`${link.page}:${link.line} (${link.target}): ${problem}`];
    });
    expect(broken).toEqual([]);
  });

  it("makes anchors as GitHub does", () => {
    expect(githubSlug("What happens on restart, and `history`")).toBe(
      "what-happens-on-restart-and-history",
    );
    expect(githubSlug("The day store: history beyond the API's 3 months")).toBe(
      "the-day-store-history-beyond-the-apis-3-months",
    );
    expect(githubSlug("Performance (measured)")).toBe("performance-measured");
    expect(githubSlug("After, third stop (2026-11-25 afternoon): a worker")).toBe(
      "after-third-stop-2026-11-25-afternoon-a-worker",
    );
  });
});

describe("the documentation's length", () => {
  it(`keeps README to at most ${README_MAX_LINES} lines: the manual is in docs/`, () => {
    expect(lineCount(read("README.md"))).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it(`keeps each decision record to at most ${DECISION_MAX_LINES} lines`, () => {
    const decisions = PAGES.filter((page) => page.startsWith(join("docs", "decisions")));
    const long = decisions
      .map((page) => ({ page, lines: lineCount(read(page)) }))
      .filter(({ lines }) => lines > DECISION_MAX_LINES);
    expect(long).toEqual([]);
  });
});

describe("the example configs", () => {
  const blocks = ["README.md", ...PAGES.filter((page) => page.startsWith("docs"))].flatMap(
    yamlBlocks,
  );
  const whole = blocks.filter((block) => !block.fragment && /^teams:/m.test(block.text));

  it("finds the whole configs in README and docs/", () => {
    expect(whole.map((block) => block.page)).toEqual(
      expect.arrayContaining(["README.md", join("docs", "configuration.md")]),
    );
  });

  it("loads every whole config of README and docs/ with the project's own loader", () => {
    const refused = whole.flatMap((block) => {
      const source = `${block.page}:${block.line}`;
      const result = tryParseConfigText(block.text, source, { env: envFor(block.text) });
      return "issues" in result ? [`${source}: ${describeIssues(result.issues)}`] : [];
    });
    expect(refused).toEqual([]);
  });

  it("parses every other yaml block as YAML", () => {
    const broken = blocks
      .filter((block) => !whole.includes(block))
      .flatMap((block) => {
        try {
          parseYaml(block.text);
          return [];
        } catch (error) {
          return [`${block.page}:${block.line}: ${(error as Error).message.split("\n")[0]}`];
        }
      });
    expect(broken).toEqual([]);
  });

  it("loads every config/*.yaml file and the deployment's config", () => {
    const files = readdirSync(join(ROOT, "config"))
      .filter((name) => name.endsWith(".yaml"))
      .map((name) => join("config", name));
    expect(files).toEqual(expect.arrayContaining([join("config", "reporter.example.yaml")]));
    const refused = [...files, join("deploy", "config.yaml")].flatMap((file) => {
      const result = tryLoadConfig(join(ROOT, file), { env: envFor(read(file)) });
      return "issues" in result ? [`${file}: ${describeIssues(result.issues)}`] : [];
    });
    expect(refused).toEqual([]);
  });
});
