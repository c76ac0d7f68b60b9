import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '../../lib/format.ts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ClinicFieldChoicePage, ClinicRecordPage, ClinicVisit } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { fakeServer } from '../../test/fakeServer.ts';
import { analysisResult } from '../../test/analysis-result.ts';
import { VisitForm } from './components/VisitForm.tsx';
import { VisitResult } from './components/VisitResult.tsx';
import { ClinicRecords } from './components/ClinicRecords.tsx';
import ClinicPage from './pages/ClinicPage.tsx';

afterEach(() => vi.unstubAllGlobals());

const visit: ClinicVisit = {
  id: 7,
  created_at: '2026-11-04T08:00:00.000Z',
  farmer: {
    id: 3,
    name: 'amina.nakato-0001',
    phone: '+256772000001',
    district: 'UG-101',
    language: 'sw',
    created_here: true,
  },
  crop: 'maize',
  variety: 'Longe 5',
  growth_stage: 'vegetative',
  share_affected: 30,
  symptoms: '',
  field: { id: 4, name: 'Near the river' },
  walk: null,
  analyses: [analysisResult()],
  verdict: null,
  severity: null,
  recommendation: null,
  decided_at: null,
  result_sms_at: null,
  follow_up_at: null,
};

describe('plant clinic', () => {
  it("checks the visit with the contract's schema before sending anything", async () => {
    const calls = fakeServer(() => ({ status: 500 }));
    renderWithProviders(<VisitForm onRecorded={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Diagnose' }));
    expect(await screen.findByText('Choose the growth stage')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it("offers the farmer's fields of the crop, or a new one, and checks the counts before sending", async () => {
    const fields: ClinicFieldChoicePage = {
      count: 2,
      next: null,
      previous: null,
      results: [
        { id: 4, number: 1, name: 'Near the river', crop: 'maize', planted_on: '2026-09-01' },
        { id: 5, number: 2, name: 'Hill', crop: 'beans', planted_on: null },
      ],
    };
    const calls = fakeServer(() => ({ status: 200, body: fields }));
    renderWithProviders(<VisitForm onRecorded={() => {}} />);
    await userEvent.type(screen.getByRole('textbox', { name: /Farmer's phone number/ }), '+256772000001');
    const field = screen.getByRole('combobox', { name: /^Field/ });
    expect(await within(field).findByRole('option', { name: 'Near the river (field 1)' })).toBeTruthy();
    // The beans field is not offered for maize.
    expect(within(field).queryByRole('option', { name: /Hill/ })).toBeNull();
    expect(calls[0].url).toBe('/api/clinic/farmer-fields/?phone_number=%2B256772000001&page_size=50');
    await userEvent.selectOptions(field, 'new');
    await userEvent.type(screen.getByRole('textbox', { name: /Name of the new field/ }), 'Valley');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /Growth stage/ }), 'flowering');
    // Neither the share nor the counts: one of them is needed.
    await userEvent.click(screen.getByRole('button', { name: 'Diagnose' }));
    expect(await screen.findByText('Give the share of the field affected, or count the plants')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Plants looked at' }), '10');
    await userEvent.type(screen.getByRole('textbox', { name: 'Plants with rust' }), '11');
    await userEvent.click(screen.getByRole('button', { name: 'Diagnose' }));
    expect(await screen.findByText('Give the plants with rust, no more than the plants looked at')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it("shows the walk counted at the visit and the advice the farmer's SMS gives", () => {
    const walk = {
      plants_looked: 50,
      plants_rust: 14,
      incidence: { share: 0.28, low: 0.17, high: 0.42 },
      advice: { action: 'spray_now' },
    } as ClinicVisit['walk'];
    renderWithProviders(<VisitResult visit={{ ...visit, walk }} onDone={() => {}} />);
    expect(screen.getByText('Near the river: rust on 14 of 50 plants (28%)')).toBeTruthy();
    expect(screen.getByText('Advice sent with a rust result: spray now')).toBeTruthy();
  });

  it("sends the expert's verdict and says the farmer gets the SMS", async () => {
    const calls = fakeServer(() => ({
      status: 200,
      body: { ...visit, verdict: 'healthy', result_sms_at: '2026-11-04T08:01:00.000Z' },
    }));
    renderWithProviders(<VisitResult visit={visit} onDone={() => {}} />);
    await userEvent.selectOptions(screen.getByLabelText('Your diagnosis'), 'healthy');
    await userEvent.type(screen.getByLabelText(/Recommendation for the farmer/), 'Keep checking');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and send SMS' }));
    expect(await screen.findByText(/Saved: Healthy/)).toBeTruthy();
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/clinic/visits/7/verdict/',
      body: { verdict: 'healthy', recommendation: 'Keep checking' },
    });
  });

  it('lists the records with a pager', async () => {
    const page: ClinicRecordPage = {
      count: 11,
      next: 2,
      previous: null,
      results: [
        {
          id: 7,
          created_at: visit.created_at,
          farmer_name: 'Amina Nakato',
          farmer_phone: '+256772000001',
          district: 'UG-101',
          crop: 'maize',
          field: 'Near the river',
          variety: 'Longe 5',
          growth_stage: 'vegetative',
          share_affected: null,
          plants_looked: 50,
          plants_rust: 14,
          symptoms: '',
          kutu_diagnosis: 'common_rust 95%',
          verdict: 'common_rust',
          recommendation: 'Pick off the worst leaves',
          expert: 'doctor',
        },
      ],
    };
    fakeServer(() => ({ status: 200, body: page }));
    renderWithProviders(<ClinicRecords onOpen={() => {}} />);
    // The app's date ("27 Nov 2026"), not the browser's ("11/27/2026"), and the name as typed.
    const line = await screen.findByText(/Amina Nakato/);
    expect(line.textContent).toContain(formatDate(visit.created_at));
    expect(line.textContent).not.toMatch(/\d+\/\d+\/\d{4}/);
    expect(screen.getByText('Pick off the worst leaves')).toBeTruthy();
    expect(screen.getByText(/rust on 14 of 50 plants/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeTruthy();
    expect(screen.getByText(/of 11/)).toBeTruthy();
  });

  it('opens a visit not answered yet from the records, and confirms it as just after recording', async () => {
    const record = {
      id: 7,
      created_at: visit.created_at,
      farmer_name: 'amina.nakato-0001',
      farmer_phone: '+256772000001',
      district: 'UG-101',
      crop: 'maize' as const,
      variety: 'Longe 5',
      growth_stage: 'vegetative' as const,
      share_affected: 30,
      symptoms: '',
      kutu_diagnosis: 'common_rust 95%',
      verdict: null,
      recommendation: null,
      expert: 'doctor',
    };
    const calls = fakeServer(({ method, url }) => {
      if (method === 'POST') return { status: 200, body: { ...visit, verdict: 'common_rust' } };
      if (url.startsWith('/api/clinic/visits/7/')) return { status: 200, body: visit };
      return { status: 200, body: { count: 1, next: null, previous: null, results: [record] } };
    });
    renderWithProviders(<ClinicPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'My records' }));
    expect(await screen.findByText(/not answered yet/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Finish this visit' }));
    expect(screen.getByRole('tab', { name: 'New visit', selected: true })).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm and send SMS' }));
    expect(await screen.findByText(/Saved: Common Rust/)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toMatchObject([{ url: '/api/clinic/visits/7/verdict/' }]);
  });
});
