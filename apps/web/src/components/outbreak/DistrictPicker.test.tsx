import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { DistrictPicker } from './DistrictPicker.tsx';

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
});
