import { inflateSync } from 'node:zlib';

/** The text drawn in a PDF: its content streams inflated (pdfkit compresses them). */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  let out = '';
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    try {
      out += inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      // not a deflated stream (an image, a font)
    }
  }
  // Each line is a TJ array of hex strings (<4b756d69> is "Kumi") and kerning numbers between them.
  return [...out.matchAll(/\[([^\]]*)\] TJ/g)]
    .map((line) =>
      [...line[1].matchAll(/<([0-9a-f]+)>/gi)].map((h) => Buffer.from(h[1], 'hex').toString('latin1')).join(''),
    )
    .join('\n');
}

/** The lines drawn on each page, in page order (pdfkit writes one content stream per page, as the pages end). */
export function pdfPages(pdf: Buffer): string[][] {
  const raw = pdf.toString('latin1');
  const pages: string[][] = [];
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, raw.indexOf('endstream', start))).toString('latin1');
    } catch {
      continue;
    }
    if (!content.includes(' TJ')) continue;
    pages.push(
      [...content.matchAll(/\[([^\]]*)\] TJ/g)].map((line) =>
        [...line[1].matchAll(/<([0-9a-f]+)>/gi)].map((h) => Buffer.from(h[1], 'hex').toString('latin1')).join(''),
      ),
    );
  }
  return pages;
}

/** How many pages a PDF has. */
export const pdfPageCount = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;
