import { afterEach, describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { ReviewSummary } from '@kutu/contract';
import i18n from '../../lib/i18n.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { fakeServer } from '../../test/fakeServer.ts';
import { ReviewSummaryCard } from './ReviewSummaryCard.tsx';

const farmer: ReviewSummary = {
  role: 'farmer',
  waiting: null,
  reviewed_by_me_this_week: null,
  my_agreement_rate: null,
  questions_asked: 3,
  questions_answered: 2,
};

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe("the farmer's review card", () => {
  // sw "Maswali niliyojibu" and lg "Ebibuuzo bye nzizeemu" said "questions I answered": the farmer
  // asked them, and an expert answered.
  it.each([
    ['en', 'My questions answered'],
    ['sw', 'Maswali yangu yaliyojibiwa'],
    ['lg', 'Ebibuuzo byange ebyaddibwamu'],
  ])('counts the questions of the farmer that got an answer (%s)', async (language, label) => {
    fakeServer(() => ({ status: 200, body: farmer }));
    await act(() => i18n.changeLanguage(language));
    renderWithProviders(<ReviewSummaryCard />);
    const figure = await screen.findByTestId('summary-answered');
    expect(figure.parentElement?.textContent).toContain(label);
    expect(figure.textContent).toMatch(/^2\D+3$/);
  });
});
