import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../test/render.tsx';
import type { CountryLookup } from './geoip.ts';
import { PhoneInput } from './PhoneInput.tsx';
import { analysePhone, countryOptions, regionCountry, rememberCountry } from './phone.ts';
import lg from '../../lib/locales/lg.json' with { type: 'json' };

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

const country = () => screen.getByRole('combobox', { name: 'Country code' }) as HTMLSelectElement;
/** What the country picker shows: its selected option's text. */
const shown = (select: HTMLSelectElement = country()) => select.selectedOptions[0]?.textContent;
const number = () => screen.getByLabelText('Phone number') as HTMLInputElement;
const model = () => screen.getByTestId('model').textContent;
const type = (text: string) => fireEvent.change(number(), { target: { value: text } });

describe('PhoneInput', () => {
  it('starts on Uganda and shows its example number', () => {
    renderWithProviders(<Harness />);
    expect(shown()).toBe('+256 Uganda');
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
    expect(shown()).toBe('+254 Kenya');
    expect(model()).toBe('+254712345678');
    expect(number().value).toBe('0712 345678');
    // What it understood, in full.
    expect(screen.getByText('Read as +254 712 345678')).toBeTruthy();
  });

  it('reads a local number in the browser region, or in the country of the last number used here', () => {
    localStorage.removeItem('kutu.phoneCountry');
    expect(regionCountry(['en-KE', 'en'])).toBe('KE');
    expect(regionCountry(['lg'])).toBe('UG');
    expect(regionCountry(['en-US', 'fr'])).toBe('UG');
    rememberCountry('+255712345678');
    expect(regionCountry(['en-KE'])).toBe('TZ');
    localStorage.removeItem('kutu.phoneCountry');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['sw-KE']);
    renderWithProviders(<Harness />);
    expect(shown()).toBe('+254 Kenya');
    type('0712 345 678');
    expect(model()).toBe('+254712345678');
    expect(screen.getByText('Read as +254 712 345678')).toBeTruthy();
    vi.restoreAllMocks();
  });

  it('rejects a calling code no offered country uses, clears the country and asks to choose one', () => {
    renderWithProviders(<Harness />);
    type('+999123456');
    expect(country().value).toBe('');
    type('+447911123456');
    expect(country().value).toBe('');
    expect(screen.getByText('Choose country')).toBeTruthy();
    expect(model()).toBe('+447911123456');
  });

  it("says 'Choose country' when a number is typed with no country selected", () => {
    renderWithProviders(<Harness />);
    fireEvent.change(country(), { target: { value: '' } });
    expect(country().value).toBe('');
    expect(screen.queryByText('Choose country')).toBeNull();
    type('0712345678');
    expect(screen.getByText('Choose country')).toBeTruthy();
    expect(model()).toBe('0712345678');
  });

  it('pre-selects the country from the IP lookup, and ignores a code the list does not offer', async () => {
    renderWithProviders(<Harness countryLookup={async () => 'KE'} />);
    await waitFor(() => expect(shown()).toBe('+254 Kenya'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderWithProviders(<Harness countryLookup={async () => 'XX'} />);
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(
      screen.getAllByRole('combobox', { name: 'Country code' }).map((el) => shown(el as HTMLSelectElement)),
    ).toEqual(['+254 Kenya', '+256 Uganda']);
    warn.mockRestore();
  });

  it('only logs a failed IP lookup', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithProviders(<Harness countryLookup={() => Promise.reject(new Error('offline'))} />);
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(shown()).toBe('+256 Uganda');
    error.mockRestore();
  });
});

describe('phone helpers', () => {
  it('lists Uganda and Kenya first, then the other East African countries by name', () => {
    expect(countryOptions().map((o) => o.label)).toEqual([
      '+256 Uganda',
      '+254 Kenya',
      '+257 Burundi',
      '+243 Congo - Kinshasa',
      '+250 Rwanda',
      '+252 Somalia',
      '+211 South Sudan',
      '+255 Tanzania',
    ]);
  });

  // Chromium's Intl has no Luganda: the list said "Uganda" (English) where Luganda says "Yuganda".
  it("names the countries in the catalogue's words where it has them", () => {
    const translate = (key: string) =>
      (key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], lg) as string) ?? key;
    const labels = countryOptions('lg', translate).map((o) => o.label);
    expect(labels.slice(0, 2)).toEqual(['+256 Yuganda', '+254 Kenya']);
    expect(labels).toContain("+211 Sudaani ey'Obukiikaddyo");
    expect(labels).toContain('+255 Tanzaniya');
  });

  it('picks a country by choice and reads the national number again for it', () => {
    renderWithProviders(<Harness />);
    type('0712 123456');
    fireEvent.change(country(), { target: { value: 'KE' } });
    expect(shown()).toBe('+254 Kenya');
    expect(model()).toBe('+254712123456');
  });

  it('reads a national number against the selected country', () => {
    expect(analysePhone('0712 123456', 'KE')).toMatchObject({ valid: true, value: '+254712123456' });
    expect(analysePhone('0712 123456', null)).toMatchObject({ valid: false, value: '0712 123456' });
    expect(analysePhone('+255712345678', 'UG')).toMatchObject({ valid: true, value: '+255712345678', country: 'TZ' });
  });
});
