import ExcelJS from "exceljs";

/** Reading a workbook back with exceljs, the way a user's script would. */

export async function loadWorkbook(buffer: Buffer): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(buffer as unknown as ArrayBuffer);
  return book;
}

export function sheet(book: ExcelJS.Workbook, name: string): ExcelJS.Worksheet {
  const found = book.getWorksheet(name);
  if (!found)
    throw new Error(`no sheet ${name}; sheets: ${book.worksheets.map((w) => w.name).join(", ")}`);
  return found;
}

export function headers(ws: ExcelJS.Worksheet): string[] {
  const row = ws.getRow(1);
  const out: string[] = [];
  for (let c = 1; c <= ws.columnCount; c++) out.push(String(row.getCell(c).value));
  return out;
}

/** Data rows as { header → cell }. */
export function records(ws: ExcelJS.Worksheet): Map<string, ExcelJS.Cell>[] {
  const names = headers(ws);
  const out: Map<string, ExcelJS.Cell>[] = [];
  for (let r = 2; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    out.push(new Map(names.map((name, i) => [name, row.getCell(i + 1)])));
  }
  return out;
}

/** The cell under `header`, failing loudly when the column is missing. */
export function cell(record: Map<string, ExcelJS.Cell>, header: string): ExcelJS.Cell {
  const found = record.get(header);
  if (!found) throw new Error(`no column ${header}`);
  return found;
}

/** The value as the model would hold it: empty cells are null. */
export function value(record: Map<string, ExcelJS.Cell>, header: string): unknown {
  const v = cell(record, header).value;
  return v === undefined ? null : v;
}
