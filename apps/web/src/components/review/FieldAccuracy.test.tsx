import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { FieldAccuracyFigures, FieldAccuracyReply } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { fakeNetwork, json } from '../../test/fakeServer.ts';
import { FieldAccuracy } from './FieldAccuracy.tsx';

afterEach(() => vi.unstubAllGlobals());

const figures: FieldAccuracyFigures = {
  analyses: 10,
  reviewed: 6,
  confident_reviewed: 5,
  agreement: 0.8,
  unsure_rate: 0.1,
  // The model said rust 5 times: the expert agreed 4 times and said healthy once; one unsure was other.
  confusion: { common_rust: { common_rust: 4, healthy: 1 }, unsure: { other_disease: 1 } },
};
const reply: FieldAccuracyReply = {
  versions: [{ ...figures, model_version: 'v2', by_crop: {} }],
  model_answers: ['common_rust', 'healthy', 'unsure'],
  verdicts: ['common_rust', 'healthy', 'other_disease'],
  severity: { rated: 0, agreed: 0, agreement: null, confusion: {}, estimate: true },
};

describe('FieldAccuracy', () => {
  it("draws each version's model answers against the expert verdicts, 0 where none", async () => {
    fakeNetwork(() => json(reply));
    renderWithProviders(<FieldAccuracy />);
    const table = await screen.findByRole('table', { name: 'Model answer against expert verdict' });
    const heads = [...table.querySelectorAll('thead th')].map((h) => h.textContent);
    expect(heads).toEqual(['Model \\ Expert', 'Rust', 'Healthy', 'Other']);
    const rows = [...table.querySelectorAll('tbody tr')].map((r) => [...r.children].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Rust', '4', '1', '0'],
      ['Healthy', '0', '0', '0'],
      ['Unsure', '0', '0', '1'],
    ]);
  });
});
