import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../../test/render.tsx';
import { StatCards, statKeys } from './StatCards.tsx';

describe('the dashboard figures while they load', () => {
  it('are placeholders a screen reader can name: status regions called "Loading", not named plain divs', () => {
    // ARIA forbids a name on a plain div (axe: aria-prohibited-attr, serious); a status region may have one.
    renderWithProviders(<StatCards stats={undefined} />);
    expect(screen.getAllByRole('status', { name: /loading/i })).toHaveLength(statKeys.length);
  });
});
