import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ClinicRecordPage, ClinicVisit } from '@kutu/contract';
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
    expect(screen.getByText('Give the share of the field affected, 0 to 100 %')).toBeTruthy();
    expect(calls).toEqual([]);
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
          farmer_name: 'amina.nakato-0001',
          farmer_phone: '+256772000001',
          district: 'UG-101',
          crop: 'maize',
          variety: 'Longe 5',
          growth_stage: 'vegetative',
          share_affected: 30,
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
    expect(await screen.findByText(/amina.nakato-0001/)).toBeTruthy();
    expect(screen.getByText('Pick off the worst leaves')).toBeTruthy();
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
