// exceljs's own modules for the two classes the workbook uses. Its main entry loads every part
// of it (the readers, CSV, unzipper, saxes: ~110 ms of a start-up); these load what they need.
// The classes are the very ones the main entry exports (lib/exceljs.nodejs.js requires them).

declare module "exceljs/lib/stream/xlsx/workbook-writer.js" {
  import type ExcelJS from "exceljs";

  const WorkbookWriter: typeof ExcelJS.stream.xlsx.WorkbookWriter;
  export default WorkbookWriter;
}

declare module "exceljs/lib/doc/workbook.js" {
  import type ExcelJS from "exceljs";

  const Workbook: typeof ExcelJS.Workbook;
  export default Workbook;
}
