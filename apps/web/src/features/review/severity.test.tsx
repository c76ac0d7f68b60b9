import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SeverityAgreement } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { analysisResult } from '../../test/analysis-result.ts';
import SeverityFigures from '../../components/review/SeverityFigures.tsx';
import { ReviewDialog } from './components/ReviewDialog.tsx';

afterEach(() => vi.unstubAllGlobals());

// A confident rust answer on beans, its severity low (an estimate).
const rust = analysisResult({ crop: 'beans', severity: { share: 0.031, band: 'low', estimate: true } });

describe('severity on the field-accuracy page', () => {
  const figures = (rated: number, agreed: number, estimate: boolean): SeverityAgreement => ({
    rated,
    agreed,
    agreement: rated ? agreed / rated : null,
    estimate,
    confusion: {
      low: { low: agreed, moderate: rated - agreed, severe: 0 },
      moderate: { low: 0, moderate: 0, severe: 0 },
      severe: { low: 0, moderate: 0, severe: 0 },
    },
  });

  it('says when there are too few ratings to judge, and shows the band confusion', () => {
    renderWithProviders(<SeverityFigures severity={figures(3, 2, true)} />);
    expect(screen.getByTestId('severity-rated').textContent).toBe('3');
    expect(screen.getByTestId('severity-agreed').textContent).toMatch(/2 \(66\.7\s?%\)/);
    expect(screen.getByTestId('severity-verdict').textContent).toMatch(
      /Too few to judge\. Farmers see “estimate” until 30 are rated and 80\s?% agree/,
    );
    const table = screen.getByRole('table', { name: 'Model severity vs expert severity' });
    expect(table.querySelectorAll('tbody tr')[0].textContent).toMatch(/Low\s*2\s*1\s*0/);
  });

  it('says farmers no longer see "estimate" once enough agree', () => {
    renderWithProviders(<SeverityFigures severity={figures(40, 36, false)} />);
    expect(screen.getByTestId('severity-verdict').textContent).toMatch(/no longer see/);
  });
});

describe('severity in the review dialog', () => {
  it("offers the expert's own severity with a rust verdict only, and sends it", async () => {
    const sent: { method: string; url: string; body: unknown }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      const body = init.body ? JSON.parse(String(init.body)) : null;
      sent.push({ method: init.method ?? 'GET', url, body });
      const reply = url.endsWith('/claim/')
        ? { analysis_id: 7, claimed_by: { id: 1, username: 'e' }, claimed_until: '2026-03-02T08:10:00.000Z' }
        : { analysis_id: 7, verdict: 'common_rust', severity: 'moderate' };
      return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const user = userEvent.setup();
    renderWithProviders(<ReviewDialog item={{ analysis: rust, question: null, farmerName: 'f' }} onClose={() => {}} />);
    // The model said rust, so the verdict starts at rust and the severity choice is there.
    await user.click(await screen.findByRole('radio', { name: 'Moderate' }));
    await user.click(screen.getByRole('radio', { name: /healthy/i }));
    expect(screen.queryByRole('radio', { name: 'Moderate' })).toBeNull();
    await user.click(screen.getByRole('radio', { name: /rust/i }));
    await user.click(screen.getByRole('radio', { name: 'Moderate' }));
    await waitFor(() => expect(sent.some((s) => s.url.endsWith('/claim/'))).toBe(true));
    await user.click(screen.getByRole('button', { name: 'Save verdict' }));
    await waitFor(() => expect(sent.some((s) => s.method === 'PUT')).toBe(true));
    expect(sent.find((s) => s.method === 'PUT')?.body).toEqual({ verdict: 'common_rust', severity: 'moderate' });
  });
});
