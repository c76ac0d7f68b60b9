import { describe, expect, it } from 'vitest';
import { clinicVisitFields } from './clinic.ts';
import { numberText, pageQuery, rowId } from './common.ts';
import { fieldSize } from './fields.ts';
import { z } from 'zod';

// Number(), which z.coerce uses, read "0x10" as 16 plants and "1.0" or "0x1" as row 1.
describe('a number sent as text is read only when written in plain digits', () => {
  it('refuses hexadecimal, exponents, signs, a decimal point in a whole number and the empty string', () => {
    for (const text of ['0x10', '1e1', '1.0', '-3', '+3', '', ' ', '0b1', 'Infinity'])
      expect(rowId().safeParse(text).success, text).toBe(false);
    expect(rowId().parse(' 16 ')).toBe(16);
    expect(rowId().parse(16)).toBe(16);
    expect(pageQuery.safeParse({ page: '0x2' }).success).toBe(false);
    expect(pageQuery.parse({}).page).toBe(1);
  });

  it('takes a decimal point only where the number may have one', () => {
    expect(fieldSize.parse('2.5')).toBe(2.5);
    expect(fieldSize.safeParse('0x10').success).toBe(false);
    expect(numberText(z.number(), 'decimal').safeParse('1e3').success).toBe(false);
  });

  it('refuses a clinic visit whose plants are counted in hexadecimal', () => {
    const visit = { phone_number: '+256772000111', crop: 'beans', growth_stage: 'flowering' };
    const hex = clinicVisitFields.safeParse({ ...visit, plants_looked: '0x10', plants_rust: '2' });
    expect(hex.success).toBe(false);
    expect(hex.error?.issues[0]?.path).toEqual(['plants_looked']);
    const plain = clinicVisitFields.safeParse({ ...visit, plants_looked: '16', plants_rust: '2' });
    expect(plain.success, JSON.stringify(plain.error?.issues)).toBe(true);
  });
});
