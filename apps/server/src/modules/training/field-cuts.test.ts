import { describe, expect, it } from 'vitest';
import { type AnsweredPhoto, cropCuts } from './field-cuts.service.ts';

const at = (day: number) => new Date(Date.UTC(2026, 10, day));

/** `n` verified photos of a crop answered at `share`, right or wrong, verified on `day`. */
const photos = (n: number, share: number, right: boolean, cropType: string | null = 'BEANS', day = 1) =>
  Array.from(
    { length: n },
    (): AnsweredPhoto => ({
      cropType,
      label: 'common_rust',
      outcome: 'diagnosis',
      rustClass: right ? 'common_rust' : 'healthy',
      confidence: share,
      verifiedAt: at(day),
    }),
  );

describe('which unsure cut answers a crop (docs/decisions/0119)', () => {
  it('applies a learnt cut stricter than the card’s, since its newest photo or the activation if later', () => {
    const rows = [...photos(140, 0.99, true), ...photos(10, 0.95, false, 'BEANS', 5)];
    const [beans] = cropCuts(rows, 0.9, at(3));
    expect(beans).toMatchObject({ crop: 'beans', photos: 150, applied: { source: 'field', value: 0.99 } });
    expect(beans.since).toEqual(at(5));
    expect(cropCuts(rows, 0.9, at(9))[0].since).toEqual(at(9));
  });

  it('keeps the card’s cut where the learnt one is looser, or rests on too few photos', () => {
    // Errors only at low shares: Kutu could answer from 50 %, but a looser cut is shown, not applied.
    const loose = [...photos(150, 0.5, true), ...photos(10, 0.3, false)];
    const [beans] = cropCuts(loose, 0.9, null);
    expect(beans.learnt?.cut).toBe(0.5);
    expect(beans).toMatchObject({ applied: { source: 'card', value: 0.9 }, since: null });
    const [maize] = cropCuts([...photos(88, 0.99, true, 'MAIZE'), ...photos(10, 0.95, false, 'MAIZE')], 0.9, null);
    expect(maize).toMatchObject({ crop: 'maize', photos: 98, learnt: null, applied: { source: 'card', value: 0.9 } });
  });

  it('reads "answer nothing" as a cut of 1', () => {
    const [none] = cropCuts([...photos(90, 0.6, true, null), ...photos(10, 0.99, false, null)], 0.9, null);
    expect(none).toMatchObject({ crop: 'unknown', applied: { source: 'field', value: 1 } });
  });
});
