import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { writeFileAtomically } from "../src/deliver/atomic-file.js";
import { writeWorkbook } from "../src/render/workbook/workbook.js";
import { syntheticReport } from "../test/render/workbook-fixture.js";

// The workbook's worst case: 500 projects × 90 days (45,000 Daily rows) streamed to a temp
// file. Prints the time, the file size and the peak RSS, sampled while writing and as the
// process's max RSS. `npx tsx bench/workbook-bench.ts [projects] [days] [--json]`; `npm run
// bench` runs it in a process of its own, so the peak is the workbook's alone.

const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

async function main(): Promise<void> {
  const projects = Number(process.argv[2] ?? 500);
  const days = Number(process.argv[3] ?? 90);
  const dir = await mkdtemp(join(tmpdir(), "workbook-bench-"));
  const path = join(dir, "bench.xlsx");
  try {
    const report = syntheticReport(projects, days, 42);
    globalThis.gc?.();
    const before = process.memoryUsage();

    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 20);

    const started = performance.now();
    await writeFileAtomically(path, (stream) => writeWorkbook(report, stream));
    const ms = performance.now() - started;
    clearInterval(sampler);

    const size = (await stat(path)).size;
    const maxRss = process.resourceUsage().maxRSS * 1024;
    if (process.argv.includes("--json")) {
      console.log(JSON.stringify({ ms, fileBytes: size, peakRssBytes: maxRss }));
      return;
    }
    console.log(`workbook: ${projects} projects × ${days} days = ${projects * days} Daily rows`);
    console.log(
      `  time            ${(ms / 1000).toFixed(2)} s (${Math.round((projects * days) / (ms / 1000))} rows/s)`,
    );
    console.log(`  file            ${mb(size)}`);
    console.log(
      `  rss before      ${mb(before.rss)} (report model built, heap ${mb(before.heapUsed)})`,
    );
    console.log(
      `  peak rss        ${mb(peakRss)} sampled (+${mb(peakRss - before.rss)}), heap peak ${mb(peakHeap)}`,
    );
    console.log(`  max rss         ${mb(maxRss)} (process.resourceUsage)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
