import { describe, expect, it } from "vitest";
import { trendCharts } from "../../../src/render/charts/trend-chart.js";
import { renderWorkbook } from "../../../src/render/workbook/workbook.js";
import { BASE_FONT } from "../../../src/render/workbook/workbook-cells.js";
import { sampleReport } from "../workbook-fixture.js";
import { loadWorkbook, records, sheet } from "../workbook-read.js";
import { chartInput, subjectChartInput } from "./chart-fixture.js";
import { pngSize } from "./png-pixels.js";

// The workbook carries the same pictures as the mail, on a Charts sheet of its own, and the
// sheets it had before keep their rows.

describe("a workbook with charts", () => {
  it("places each chart's PNG on a Charts sheet, under its title and words, after the other sheets", async () => {
    const drawer = trendCharts();
    const charts = [
      await drawer.drawSubject(subjectChartInput(), "team-rates"),
      await drawer.draw(chartInput("runPassRate"), "team-run-pass-rate"),
    ];
    const report = sampleReport();
    const plain = await loadWorkbook(await renderWorkbook(report));
    const book = await loadWorkbook(await renderWorkbook(report, { charts }));

    expect(book.worksheets.map((w) => w.name)).toEqual([
      ...plain.worksheets.map((w) => w.name),
      "Charts",
    ]);
    for (const name of plain.worksheets.map((w) => w.name).filter((n) => n !== "About")) {
      expect(records(sheet(book, name)).length).toBe(records(sheet(plain, name)).length);
    }
    const charted = sheet(book, "Charts");
    const images = charted.getImages();
    expect(images).toHaveLength(2);
    for (const [i, image] of images.entries()) {
      const media = book.getImage(Number(image.imageId));
      expect(media.extension).toBe("png");
      const buffer = Buffer.from(media.buffer as unknown as Uint8Array);
      expect(buffer.equals(charts[i]?.png ?? Buffer.alloc(0))).toBe(true);
      expect(pngSize(buffer)).toEqual({ width: 1200, height: charts[i]?.height });
    }
    const texts: string[] = [];
    charted.eachRow((row) => texts.push(String(row.getCell(1).value)));
    expect(texts).toContain("Apps (Sydney) · all projects");
    expect(texts.some((t) => t.startsWith("Run pass rate · Checkout (team) by day,"))).toBe(true);
    // In the workbook's own font, as every other sheet: a cell styled only bold is set in
    // LibreOffice's serif default.
    charted.eachRow((row) => {
      const cell = row.getCell(1);
      if (cell.value !== null) expect(cell.font?.name, String(cell.value)).toBe(BASE_FONT.name);
    });
    expect(charted.pageSetup).toMatchObject({
      orientation: "landscape",
      fitToPage: true,
      fitToWidth: 1,
    });
  });
});
