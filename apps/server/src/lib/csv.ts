/**
 * CSV for spreadsheets. A text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is
 * read as a formula by Excel, LibreOffice and Google Sheets (CSV injection): such a cell gets a leading
 * `'`, which the spreadsheet shows as text. Numbers and booleans are written as they are.
 */
export function csvCell(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: (string | number | boolean)[]) => `${cells.map(csvCell).join(',')}\n`;
