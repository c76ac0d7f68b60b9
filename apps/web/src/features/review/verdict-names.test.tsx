import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../test/render.tsx';
import { analysisResult } from '../../test/analysis-result.ts';
import { ReviewDialog } from './components/ReviewDialog.tsx';

afterEach(() => vi.unstubAllGlobals());

describe("the review dialog's verdicts", () => {
  it("name the photo's crop's rust: bean rust on beans, common rust on maize", async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(JSON.stringify({ analysis_id: 7, claimed_by: { id: 1, username: 'e' }, claimed_until: null }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    const beans = renderWithProviders(
      <ReviewDialog
        item={{ analysis: analysisResult({ crop: 'beans' }), question: null, farmerName: 'f' }}
        onClose={() => {}}
      />,
    );
    expect(await screen.findByRole('radio', { name: 'Bean rust (Uromyces appendiculatus)' })).toBeTruthy();
    expect(screen.queryByRole('radio', { name: /common rust/i })).toBeNull();
    beans.unmount();
    renderWithProviders(
      <ReviewDialog
        item={{ analysis: analysisResult({ crop: 'maize' }), question: null, farmerName: 'f' }}
        onClose={() => {}}
      />,
    );
    expect(await screen.findByRole('radio', { name: 'Common rust (Puccinia sorghi)' })).toBeTruthy();
  });
});
