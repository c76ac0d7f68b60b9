/**
 * CSV cells for files people open in a spreadsheet: quoted when needed, and a cell that starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'` so a spreadsheet shows it as text
 * rather than running it as a formula (OWASP "CSV injection").
 */
export function csvCell(v: string): string {
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line, ending in a newline. */
export const csvLine = (cells: (string | number | boolean)[]) => `${cells.map((c) => csvCell(String(c))).join(',')}\n`;
