import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n.ts';
import luganda from '../../lib/locales/lg.json';
import swahili from '../../lib/locales/sw.json';
import { RustSpotsLine, RustSpotsOverlay } from '../../components/RustSpots.tsx';
import { renderWithProviders } from '../../test/render.tsx';
import { analysisResult } from '../../test/analysis-result.ts';
import { fakeNetwork, json, type Sent } from '../../test/fakeServer.ts';
import { ResultWithReview } from './components/ResultWithReview.tsx';

afterEach(async () => {
  vi.unstubAllGlobals();
  await act(() => i18n.changeLanguage('en'));
});

/** A confident rust answer with its severity and two spots on a landscape photo; the model's map too. */
const rust = analysisResult({
  id: 51,
  heatmap_url: '/api/rust-detection/51/heatmap/',
  severity: { share: 0.12, band: 'moderate', estimate: true },
  rust_spots: {
    side: 160,
    aspect: 1.5,
    boxes: [
      [100, 60, 106, 66],
      [10, 10, 13, 13],
    ],
  },
});
const healthy = analysisResult({
  id: 52,
  rust_class: 'healthy',
  heatmap_url: '/api/rust-detection/52/heatmap/',
  severity: null,
  rust_spots: null,
});

function network() {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:photo', revokeObjectURL: () => {} }));
  return fakeNetwork((s: Sent) => {
    if (s.url.includes('/image/')) return new Response(new Blob([new Uint8Array(4)]));
    if (s.url.endsWith('/seen/')) return json({ updated: 0 });
    return json({ error: { code: 'NOT_FOUND', message: 'Not found' } }, 404);
  });
}

describe('the rust-coloured spots on a result (decision 0054)', () => {
  it('circles the spots on a rust answer and says what they are; no heatmap switch for a farmer', async () => {
    network();
    renderWithProviders(<ResultWithReview result={rust} />);
    const overlay = await screen.findByTestId('rust-spots');
    expect(overlay.getAttribute('aria-label')).toBe('2 rust-coloured spots circled on the photo');
    // The squashed square input stretched back to the photo's 3:2 shape, cropped like the photo.
    expect(overlay.getAttribute('viewBox')).toBe('0 0 240 160');
    expect(overlay.getAttribute('preserveAspectRatio')).toBe('xMidYMid slice');
    const rings = overlay.querySelectorAll('g:last-child ellipse');
    expect(rings).toHaveLength(2);
    expect(Number(rings[0].getAttribute('cx'))).toBeCloseTo(103 * 1.5, 5);
    expect(Number(rings[0].getAttribute('cy'))).toBeCloseTo(63, 5);
    expect(screen.getByTestId('rust-spots-line').textContent).toMatch(
      /^Circled: spots with rust’s colour, 12\s?% of the leaf — an estimate$/,
    );
    expect(screen.queryByTestId('heatmap-toggle')).toBeNull();
  });

  it('circles nothing and says nothing on a healthy answer', async () => {
    network();
    renderWithProviders(<ResultWithReview result={healthy} />);
    expect(await screen.findByAltText('The analysed photo')).toBeTruthy();
    expect(screen.queryByTestId('rust-spots')).toBeNull();
    expect(screen.queryByTestId('rust-spots-line')).toBeNull();
  });

  it('says what the rings are in Kiswahili and Luganda too', async () => {
    i18n.addResourceBundle('sw', 'translation', swahili, true, true);
    i18n.addResourceBundle('lg', 'translation', luganda, true, true);
    for (const [lang, words] of [
      ['sw', /^Yaliyozungushiwa duara: madoa yenye rangi ya kutu, 12\s?% ya jani — makadirio$/],
      ['lg', /^Ebyetooloddwa enkulungo: amabala agalina langi ya kutu, 12\s?% ku kikoola — kuteebereza$/],
    ] as const) {
      await act(() => i18n.changeLanguage(lang));
      const { unmount } = renderWithProviders(
        <div style={{ position: 'relative' }}>
          <RustSpotsOverlay spots={rust.rust_spots ?? { side: 1, aspect: 1, boxes: [] }} size={220} />
          <RustSpotsLine share={0.12} width={280} />
        </div>,
      );
      expect(screen.getByTestId('rust-spots-line').textContent).toMatch(words);
      expect(screen.getByTestId('rust-spots').getAttribute('aria-label')).toMatch(/\b2\b.*kutu/);
      unmount();
    }
  });
});
