import { afterEach, describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import i18n from '../../lib/i18n.ts';
import luganda from '../../lib/locales/lg.json';
import swahili from '../../lib/locales/sw.json';
import { renderWithProviders } from '../../test/render.tsx';
import { analysisResult } from '../../test/analysis-result.ts';
import { ResultCard } from './components/ResultCard.tsx';

// A confident rust answer on beans, its severity low (an estimate).
const rust = analysisResult({ crop: 'beans', severity: { share: 0.031, band: 'low', estimate: true } });

describe('severity on the result', () => {
  it('shows a low share as an estimate, and asks for a walk of the field, not advice from the leaf (decision 0078)', async () => {
    renderWithProviders(<ResultCard result={rust} actions={false} />);
    expect(screen.getByTestId('severity-badge').textContent).toBe('Low');
    expect(screen.getByTestId('severity-band').textContent).toMatch(
      /^Little rust: spots cover about 3\s?% of this leaf\.$/,
    );
    expect(screen.queryByTestId('severity-advice')).toBeNull();
    expect((await screen.findByTestId('walk-ask')).textContent).toMatch(
      /^Walk your field to know how much of it has rust/,
    );
    expect(screen.getByTestId('severity-estimate').textContent).toMatch(/An estimate/);
  });

  it("keeps the leaf's advice under an expert's answer, which the farmer acts on", () => {
    const answered = analysisResult({
      crop: 'beans',
      severity: { share: 0.07, band: 'moderate', estimate: true },
      expert_answer: {
        verdict: 'common_rust',
        note: null,
        severity: null,
        answered_at: '2026-11-26T08:00:00.000Z',
        changed: false,
        feedback: rust.feedback,
        educational_resources: [],
      },
    });
    renderWithProviders(<ResultCard result={answered} actions={false} />);
    expect(screen.getByTestId('severity-advice').textContent).toMatch(/Whether spraying pays/);
    expect(screen.queryByTestId('walk-ask')).toBeNull();
  });

  it('says a moderate share in one sentence that agrees with its number, and no spray advice from it', () => {
    renderWithProviders(
      <ResultCard result={{ ...rust, severity: { share: 0.07, band: 'moderate', estimate: true } }} actions={false} />,
    );
    expect(screen.getByTestId('severity-band').textContent).toMatch(
      /^Some rust: spots cover about 7\s?% of this leaf\.$/,
    );
    expect(screen.queryByTestId('severity-advice')).toBeNull();
    // Nothing that contradicts 7 % or that a farmer cannot read.
    expect(screen.getByTestId('result-severity').textContent).not.toMatch(/Much of this leaf|names no leaf share/);
  });

  it('asks for a walk on a severe share too, and drops "estimate" once checked', async () => {
    renderWithProviders(
      <ResultCard result={{ ...rust, severity: { share: 0.31, band: 'severe', estimate: false } }} actions={false} />,
    );
    expect(screen.getByTestId('severity-band').textContent).toMatch(
      /^A lot of rust: spots cover about 31\s?% of this leaf\.$/,
    );
    expect(screen.queryByTestId('severity-advice')).toBeNull();
    expect(await screen.findByTestId('walk-ask')).toBeTruthy();
    expect(screen.getByTestId('severity-estimate').textContent).not.toMatch(/estimate/i);
  });

  it('shows nothing without a severity (answers other than confident rust)', () => {
    renderWithProviders(<ResultCard result={{ ...rust, severity: null }} actions={false} />);
    expect(screen.queryByTestId('result-severity')).toBeNull();
  });

  describe('when the share could not be measured (the leaf not told apart, or under 1 % of it read as rust)', () => {
    const unmeasured = { ...rust, severity: null, severity_unmeasured: true, rust_spots: null };
    afterEach(async () => {
      await act(() => i18n.changeLanguage('en'));
    });

    it('says so in plain words instead of a number, with no band and no spray advice tied to one', () => {
      renderWithProviders(<ResultCard result={unmeasured} actions={false} />);
      expect(screen.getByTestId('severity-unmeasured').textContent).toBe(
        'Kutu could not measure how much of this leaf has rust: in this photo it could not tell the leaf or its spots clearly apart.',
      );
      expect(screen.getByTestId('result-severity-unmeasured').textContent).toMatch(/photograph one leaf close up/);
      expect(screen.getByTestId('result-severity-unmeasured').textContent).not.toMatch(/%/);
      expect(screen.queryByTestId('result-severity')).toBeNull();
      expect(screen.queryByTestId('severity-badge')).toBeNull();
    });

    it.each([
      ['sw', swahili],
      ['lg', luganda],
    ])('says it in %s', async (language, catalogue) => {
      i18n.addResourceBundle(language, 'translation', catalogue, true, true);
      await act(() => i18n.changeLanguage(language));
      renderWithProviders(<ResultCard result={unmeasured} actions={false} />);
      expect(screen.getByTestId('severity-unmeasured').textContent).toBe(catalogue.analysis.result.severity.unmeasured);
      expect(catalogue.analysis.result.severity.unmeasured).not.toMatch(/could not/);
    });

    it('shows the measured severity, not the note, when a share is known', () => {
      renderWithProviders(<ResultCard result={{ ...rust, severity_unmeasured: false }} actions={false} />);
      expect(screen.queryByTestId('result-severity-unmeasured')).toBeNull();
      expect(screen.getByTestId('severity-band')).toBeTruthy();
    });
  });
});
