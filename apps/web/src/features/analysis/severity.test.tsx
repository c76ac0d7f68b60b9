import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../test/render.tsx';
import { analysisResult } from '../../test/analysis-result.ts';
import { ResultCard } from './components/ResultCard.tsx';

// A confident rust answer on beans, its severity low (an estimate).
const rust = analysisResult({ crop: 'beans', severity: { share: 0.031, band: 'low', estimate: true } });

describe('severity on the result', () => {
  it('shows a low share as an estimate, with scouting advice', () => {
    renderWithProviders(<ResultCard result={rust} actions={false} />);
    expect(screen.getByTestId('severity-band').textContent).toMatch(/Low: about 3\s?% of the leaf/);
    expect(screen.getByTestId('severity-advice').textContent).toMatch(/Check the field again within a week/);
    expect(screen.getByTestId('severity-estimate').textContent).toMatch(/An estimate/);
  });

  it('points a severe share at the spray advice, saying the advice names no share, and drops "estimate" once checked', () => {
    renderWithProviders(
      <ResultCard result={{ ...rust, severity: { share: 0.31, band: 'severe', estimate: false } }} actions={false} />,
    );
    expect(screen.getByTestId('severity-band').textContent).toMatch(/Severe/);
    expect(screen.getByTestId('severity-advice').textContent).toMatch(/names no leaf share/);
    expect(screen.getByTestId('severity-estimate').textContent).not.toMatch(/estimate/i);
  });

  it('shows nothing without a severity (answers other than confident rust)', () => {
    renderWithProviders(<ResultCard result={{ ...rust, severity: null }} actions={false} />);
    expect(screen.queryByTestId('result-severity')).toBeNull();
  });
});
