import { useState } from 'react';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n.ts';
import luganda from '../../lib/locales/lg.json';
import swahili from '../../lib/locales/sw.json';
import { renderWithProviders } from '../../test/render.tsx';
import { fakeServer } from '../../test/fakeServer.ts';
import { DistrictPicker } from './DistrictPicker.tsx';
import { DistrictPromptCard } from './OutbreakSettings.tsx';

/** The picker with its value kept, as a form keeps it. */
function Picked({ onChange }: { onChange: (code: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <DistrictPicker
      value={value}
      onChange={(code) => {
        setValue(code);
        onChange(code);
      }}
    />
  );
}

const select = () => screen.getByTestId('district-select') as HTMLSelectElement;
const names = () => [...select().options].map((o) => o.textContent);

describe('DistrictPicker', () => {
  it('lists one country at a time, searches case and accent blind, and gives the chosen code', () => {
    const onChange = vi.fn();
    renderWithProviders(<DistrictPicker value="" onChange={onChange} />);
    // "Choose from the list" and Uganda's 134 districts and Kampala (ISO 3166-2:UG), the newer ones too.
    expect(select().options).toHaveLength(1 + 135);
    expect(names()).toEqual(expect.arrayContaining(['Kampala', 'Kyotera', 'Obongi', 'Kasanda']));

    fireEvent.click(screen.getByText('Kenya'));
    expect(select().options).toHaveLength(1 + 47);
    fireEvent.change(screen.getByLabelText('Search the list'), { target: { value: 'MURANGA' } });
    expect(names()).toEqual(['Choose from the list', "Murang'a"]);
    fireEvent.change(screen.getByLabelText('Search the list'), { target: { value: 'nairo' } });
    fireEvent.change(select(), { target: { value: 'KE-30' } });
    expect(onChange).toHaveBeenLastCalledWith('KE-30');
  }, 30_000);

  it('chooses a district typed whole, case blind, in its country: the search does not stop at filtering', () => {
    const onChange = vi.fn();
    renderWithProviders(<Picked onChange={onChange} />);
    fireEvent.change(screen.getByLabelText('Search the list'), { target: { value: 'mbal' } });
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Search the list'), { target: { value: 'mbale ' } });
    expect(onChange).toHaveBeenLastCalledWith('UG-209');
    expect(select().value).toBe('UG-209');
    // A county of Kenya typed on Uganda's list: Kenya's list, with it chosen.
    fireEvent.change(screen.getByLabelText('Search the list'), { target: { value: 'Nairobi' } });
    expect(onChange).toHaveBeenLastCalledWith('KE-30');
    expect(select().value).toBe('KE-30');
    expect(screen.getByRole('radio', { name: 'Kenya' })).toHaveProperty('checked', true);
  }, 30_000);

  it('offers the district named by the farm location typed at sign-up, chosen for the farmer to save', async () => {
    fakeServer(() => ({ status: 404 }));
    renderWithProviders(<DistrictPromptCard onClose={() => {}} farmLocation="Mbale, near the hospital" />);
    expect(select().value).toBe('UG-209');
    expect((screen.getByLabelText('Search the list') as HTMLInputElement).value).toBe('Mbale');
    expect(screen.getByTestId('district-save')).toHaveProperty('disabled', false);
  }, 30_000);

  it('opens on the chosen district’s country and keeps it listed while searching', () => {
    renderWithProviders(<DistrictPicker value="KE-30" onChange={() => {}} />);
    expect(select().value).toBe('KE-30');
    fireEvent.change(screen.getByLabelText('Search the list'), { target: { value: 'zzz' } });
    expect(names()).toEqual(['Choose from the list', 'Nairobi']);
  }, 30_000);

  it('says so when nothing matches, and tells that the position stays on the phone', () => {
    renderWithProviders(<DistrictPicker value="" onChange={() => {}} />);
    fireEvent.change(screen.getByLabelText('Search the list'), { target: { value: 'zzz' } });
    expect(names()).toEqual(['No district or county has that name']);
    expect(screen.getByRole('status').textContent).toBe(
      'Your position stays on this phone: only the district is saved.',
    );
  }, 30_000);

  describe('whose district it names', () => {
    afterEach(() => act(() => i18n.changeLanguage('en')));
    const label = () => screen.getByTestId('district-picker').querySelector('label')?.textContent ?? '';

    it.each([
      ['en', /farmer's farm/, /your farm/],
      ['sw', /shamba la mkulima/, /shamba lako/],
      ['lg', /y’omulimi/, /ennimiro yo/],
    ] as const)(
      'on a plant clinic visit, the farmer’s farm, not the staff member’s, in %s',
      async (lang, farmer, own) => {
        i18n.addResourceBundle('sw', 'translation', swahili, true, true);
        i18n.addResourceBundle('lg', 'translation', luganda, true, true);
        await act(() => i18n.changeLanguage(lang));
        const { unmount } = renderWithProviders(<DistrictPicker whose="farmer" value="" onChange={() => {}} />);
        expect(label()).toMatch(farmer);
        expect(label()).not.toMatch(own);
        expect(screen.getByLabelText(farmer)).toBeTruthy();
        unmount();
        // A farmer's own sign-up still says "your farm".
        renderWithProviders(<DistrictPicker value="" onChange={() => {}} />);
        expect(label()).toMatch(own);
      },
    );

    it('on an expert’s sign-up, their own area with no farm', () => {
      renderWithProviders(<DistrictPicker whose="mine" value="" onChange={() => {}} />);
      expect(label()).toBe('Your district or county');
      expect(screen.getByText('Outbreak alerts for your area use it.')).toBeTruthy();
    });
  });
});
