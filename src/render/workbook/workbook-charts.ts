import { fontOf } from "./workbook-cells.js";
import { PRINT_SETUP } from "./workbook-sheet.js";

// The `Charts` sheet: the digest's trend charts as pictures, each under its words, so the
// exported file tells the same story as the mail. exceljs's streaming writer cannot place
// pictures, so the streamed workbook is read back and written once more with the sheet added;
// only digests with charts pay for it, and their workbooks are small (one period's rows).

/** A chart as the workbook places it. */
export interface WorkbookChart {
  title: string;
  alt: string;
  png: Buffer;
  /** CSS pixels: the size the picture is shown at in the sheet. */
  cssWidth: number;
  cssHeight: number;
}

/** Default row height in points (15) is 20 pixels. */
const ROW_PX = 20;

/** The workbook `book` with a `Charts` sheet of `charts` added last. */
export async function withChartsSheet(
  book: Buffer,
  charts: readonly WorkbookChart[],
): Promise<Buffer> {
  // exceljs's whole Workbook (its reader included) is loaded only for a workbook with charts.
  const { default: Workbook } = await import("exceljs/lib/doc/workbook.js");
  const workbook = new Workbook();
  await workbook.xlsx.load(book as unknown as ArrayBuffer);
  // Printed as the other sheets are: its words, 100 characters wide, would run off a portrait page.
  const sheet = workbook.addWorksheet("Charts", { pageSetup: { ...PRINT_SETUP } });
  sheet.getColumn(1).width = 100;
  let row = 1;
  for (const chart of charts) {
    const caption = sheet.getCell(row, 1);
    caption.value = chart.title;
    // Named and sized, as every cell of the workbook: bold alone is LibreOffice's serif.
    caption.font = fontOf({ bold: true, size: 12 });
    const words = sheet.getCell(row + 1, 1);
    words.value = chart.alt;
    words.font = fontOf();
    words.alignment = { wrapText: true, vertical: "top" };
    sheet.getRow(row + 1).height = 75;
    const image = workbook.addImage({ buffer: chart.png as never, extension: "png" });
    sheet.addImage(image, {
      tl: { col: 0, row: row + 1 },
      ext: { width: chart.cssWidth, height: chart.cssHeight },
      editAs: "oneCell",
    });
    row += 3 + Math.ceil(chart.cssHeight / ROW_PX);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
