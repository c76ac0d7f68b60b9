import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '../../lib/format.ts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ClinicRecordPage, ClinicVisit } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { fakeServer } from '../../test/fakeServer.ts';
import { analysisResult } from '../../test/analysis-result.ts';
import { VisitForm } from './components/VisitForm.tsx';
import { VisitResult } from './components/VisitResult.tsx';
import { ClinicRecords } from './components/ClinicRecords.tsx';

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
          farmer_name: 'Amina Nakato',
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
    renderWithProviders(<ClinicRecords />);
    // The app's date ("27 Nov 2026"), not the browser's ("11/27/2026"), and the name as typed.
    const line = await screen.findByText(/Amina Nakato/);
    expect(line.textContent).toContain(formatDate(visit.created_at));
    expect(line.textContent).not.toMatch(/\d+\/\d+\/\d{4}/);
    expect(screen.getByText('Pick off the worst leaves')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeTruthy();
    expect(screen.getByText(/of 11/)).toBeTruthy();
  });
});
