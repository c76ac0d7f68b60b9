import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { serveWeek } from '../../../test/officer-week.ts';
import OfficerWeekPage from './OfficerWeekPage.tsx';

// The privacy minimum raised to 5 where it is set: the week screen's words follow, none keeps its own 3.
vi.mock(import('@kutu/contract/outbreak-paths'), async (original) => ({
  ...(await original()),
  SMALL_COUNT_MIN: 5,
  SMALL_COUNT_WORDS: { min: 5, max: 4 },
}));

afterEach(() => vi.unstubAllGlobals());

describe('OfficerWeekPage with a minimum of 5', () => {
  it('says "0 to 4" for every hidden count', async () => {
    serveWeek();
    renderWithProviders(<OfficerWeekPage />);
    expect(await screen.findByRole('heading', { name: 'Kumi, week 2026-W48' }, { timeout: 10_000 })).toBeTruthy();
    const neighbours = screen.getByRole('region', { name: 'Neighbouring districts' }).textContent;
    expect(neighbours).toContain('0 to 4');
    const cases = screen.getByRole('region', { name: 'Confirmed rust cases' }).textContent;
    expect(cases).toContain("on 0 to 4 of these fields the latest walk's advice is to spray now.");
    expect(cases).toContain('Farmers who walked fields this week: 0 to 4 (too few to show their rust');
    expect(document.body.textContent).not.toMatch(/\b0 to 2\b/);
  }, 30_000);
});
