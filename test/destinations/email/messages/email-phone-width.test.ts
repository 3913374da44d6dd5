import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderDigestEmail } from "../../../../src/destinations/email/messages/email-digest.js";
import { NO_NEWS } from "../../../../src/render/digest-news.js";
import { checkoutReport, quietTotal } from "../../../render/report-fixture.js";

// One quiet and one noisy digest mail laid out by a real browser in a 390 px wide frame (an
// iPhone's width): the page must not scroll sideways, and the news must sit in the first
// screen, within the width. Chromium is a system package, not an npm one: without it the test
// says why it is skipped.

const chromium = ["chromium", "chromium-browser"].find(
  (name) => spawnSync("which", [name]).status === 0,
);
const dir = mkdtempSync(join(tmpdir(), "email-390-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Layout {
  scrollWidth: number;
  news: { left: number; right: number; top: number; bottom: number } | null;
}

/** Lays `html` out in a 390 × 844 frame and measures the page and the first news line. */
function layoutAt390(html: string, firstNews: string): Layout {
  const escaped = html.replaceAll("&", "&amp;").replaceAll('"', "&quot;");
  const page = `<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" style="width:390px;height:844px;border:0" srcdoc="${escaped}"></iframe>
<script>
document.getElementById("f").addEventListener("load", () => {
  const doc = document.getElementById("f").contentDocument;
  const cell = [...doc.querySelectorAll("td")].find((td) => td.textContent.trim().startsWith(${JSON.stringify(firstNews)}));
  const r = cell ? cell.getBoundingClientRect() : null;
  document.body.setAttribute("data-layout", JSON.stringify({
    scrollWidth: doc.documentElement.scrollWidth,
    news: r && { left: r.left, right: r.right, top: r.top, bottom: r.bottom },
  }));
});
</script></body></html>`;
  const file = join(dir, `page-${Math.random().toString(36).slice(2)}.html`);
  writeFileSync(file, page);
  const dom = execFileSync(
    chromium ?? "chromium",
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--virtual-time-budget=5000",
      "--dump-dom",
      `file://${file}`,
    ],
    { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 60_000 },
  );
  const attr = /data-layout="([^"]*)"/.exec(dom)?.[1];
  if (attr === undefined) throw new Error("the page did not report its layout");
  return JSON.parse(attr.replaceAll("&quot;", '"').replaceAll("&amp;", "&")) as Layout;
}

describe.skipIf(chromium === undefined)(
  `a digest mail on a 390 px phone (Chromium${chromium ? "" : " is not installed: skipped"})`,
  () => {
    const cases = [
      {
        name: "quiet",
        report: quietTotal(checkoutReport({ alerts: [], projects: [] })),
        first: NO_NEWS,
      },
      { name: "noisy", report: checkoutReport(), first: "\u25CF Team flaky-rate" },
    ];
    it.each(cases)(
      "$name: no sideways scroll, and the news is in the first screen",
      ({ report, first }) => {
        const { html } = renderDigestEmail(report, { key: "k" });
        const layout = layoutAt390(html, first);
        expect(layout.scrollWidth).toBeLessThanOrEqual(390);
        expect(layout.news).not.toBeNull();
        expect(layout.news?.left).toBeGreaterThanOrEqual(0);
        expect(layout.news?.right).toBeLessThanOrEqual(390);
        expect(layout.news?.top).toBeLessThan(200);
      },
      90_000,
    );
  },
);
