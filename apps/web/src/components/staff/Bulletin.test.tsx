import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Application } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { fakeNetwork, json } from '../../test/fakeServer.ts';
import { screenStringsReady } from '../../lib/officer-strings.ts';
import { NationalSwitch } from './Bulletin.tsx';

const officer: Extract<Application, { role: 'officer' }> = {
  id: 12,
  username: 'dao_kumi',
  email: 'dao@example.com',
  phone: '+256772000999',
  language: 'en',
  applied_at: '2026-11-01T08:00:00.000Z',
  status: 'approved',
  reason: null,
  decided_at: '2026-11-02T08:00:00.000Z',
  decided_by: 'admin',
  role: 'officer',
  officer: { office: 'MAAIF', districts: [{ code: 'UG-208', name: 'Kumi', country: 'UG' }], national: false },
};

describe('NationalSwitch', () => {
  it('grants an approved officer the national bulletin (decision 0122)', async () => {
    await screenStringsReady;
    const calls = fakeNetwork(({ method }) =>
      method === 'PUT' ? json({ ...officer, officer: { ...officer.officer, national: true } }) : json({}, 404),
    );
    renderWithProviders(<NationalSwitch application={officer} />);
    expect(screen.getByText('Does not read the national bulletin')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Give the national bulletin' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.url).toBe('/api/admin/officers/12/national/');
    expect(put.body).toEqual({ national: true });
  });
});
