import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../test/render.tsx';
import type { CountryLookup } from './geoip.ts';
import { PhoneInput } from './PhoneInput.tsx';
import { analysePhone, countryOptions } from './phone.ts';

function Harness({
  onValue,
  countryLookup = null,
}: {
  onValue?: (v: string) => void;
  countryLookup?: CountryLookup | null;
}) {
  const [value, setValue] = useState('');
  return (
    <>
      <PhoneInput
        value={value}
        onChange={(v) => {
          setValue(v);
          onValue?.(v);
        }}
        countryLookup={countryLookup}
      />
      <output data-testid="model">{value}</output>
    </>
  );
}

const country = () => screen.getByRole('combobox', { name: 'Country code' }) as HTMLInputElement;
const number = () => screen.getByLabelText('Phone number') as HTMLInputElement;
const model = () => screen.getByTestId('model').textContent;
const type = (text: string) => fireEvent.change(number(), { target: { value: text } });

describe('PhoneInput', () => {
  it('starts on Uganda and shows its example number', () => {
    renderWithProviders(<Harness />);
    expect(country().value).toBe('+256 Uganda');
    expect(screen.getByText('Example: 0712 345678')).toBeTruthy();
  });

  it('gives E.164 for a valid number and shows it in national form', () => {
    renderWithProviders(<Harness />);
    type('712345678');
    expect(model()).toBe('+256712345678');
    expect(number().value).toBe('0712 345678');
    expect(number().getAttribute('aria-invalid')).not.toBe('true');
  });

  it('keeps the typed text and shows the error style while the number is not valid', () => {
    renderWithProviders(<Harness />);
    type('0712');
    expect(model()).toBe('0712');
    expect(number().value).toBe('0712');
    expect(number().getAttribute('aria-invalid')).toBe('true');
  });

  it('follows the country of a +CC number', () => {
    renderWithProviders(<Harness />);
    type('+254712345678');
    expect(country().value).toBe('+254 Kenya');
    expect(model()).toBe('+254712345678');
    expect(number().value).toBe('0712 345678');
    expect(screen.getByText('Example: 0712 123456')).toBeTruthy();
  });

  it('rejects a calling code no country uses, clears the country and asks to choose one', () => {
    renderWithProviders(<Harness />);
    type('+999123456');
    expect(country().value).toBe('');
    expect(screen.getByText('Choose country')).toBeTruthy();
    expect(model()).toBe('+999123456');
  });

  it("says 'Choose country' when a number is typed with no country selected", () => {
    renderWithProviders(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Clear country' }));
    expect(country().value).toBe('');
    expect(screen.queryByText('Choose country')).toBeNull();
    type('0712345678');
    expect(screen.getByText('Choose country')).toBeTruthy();
    expect(model()).toBe('0712345678');
  });

  it('pre-selects the country from the IP lookup, and ignores a code the list does not offer', async () => {
    renderWithProviders(<Harness countryLookup={async () => 'KE'} />);
    await waitFor(() => expect(country().value).toBe('+254 Kenya'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderWithProviders(<Harness countryLookup={async () => 'XX'} />);
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(
      screen.getAllByRole('combobox', { name: 'Country code' }).map((el) => (el as HTMLInputElement).value),
    ).toEqual(['+254 Kenya', '+256 Uganda']);
    warn.mockRestore();
  });

  it('only logs a failed IP lookup', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithProviders(<Harness countryLookup={() => Promise.reject(new Error('offline'))} />);
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(country().value).toBe('+256 Uganda');
    error.mockRestore();
  });
});

describe('phone helpers', () => {
  it('lists Uganda and Kenya first, then every other country by name', () => {
    const options = countryOptions();
    expect(options.slice(0, 2).map((o) => o.value)).toEqual(['UG', 'KE']);
    expect(options.length).toBeGreaterThan(200);
    expect(new Set(options.map((o) => o.value)).size).toBe(options.length);
    expect(options.slice(2, 4).map((o) => o.label)).toEqual(['+93 Afghanistan', '+358 Åland Islands']);
  });

  it('reads a national number against the selected country', () => {
    expect(analysePhone('0712 123456', 'KE')).toMatchObject({ valid: true, value: '+254712123456' });
    expect(analysePhone('0712 123456', null)).toMatchObject({ valid: false, value: '0712 123456' });
  });
});
