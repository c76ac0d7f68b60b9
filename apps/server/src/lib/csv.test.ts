import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv.ts';

describe('csv cells', () => {
  it('neutralises text a spreadsheet would run as a formula, and quotes what needs it', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    for (const start of ['+', '-', '@', '\t']) expect(csvCell(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(csvCell('a\rb')).toBe('"a\rb"');
    expect(csvCell('plain, text')).toBe('"plain, text"');
    expect(csvCell('Mbale')).toBe('Mbale');
  });

  it('writes numbers and booleans as they are', () => {
    expect(csvLine([-3, 0.5, true, '-3'])).toBe("-3,0.5,true,'-3\n");
  });
});
