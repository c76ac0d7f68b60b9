import type { ComponentType } from 'react';
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import i18n from '../../../lib/i18n.ts';
import TermsPage from '../pages/TermsPage.tsx';
import TermsEn from './TermsEn.tsx';
import TermsLg from './TermsLg.tsx';
import TermsSw from './TermsSw.tsx';

/** What a translation must keep: the parts, the list items, the bold labels and every link. */
function outline(Document: ComponentType) {
  const { container } = renderWithProviders(<Document />);
  const main = container.querySelector('main') as HTMLElement;
  const shape = {
    headings: main.querySelectorAll('h1, h2').length,
    sections: [...main.querySelectorAll('section')].map((s) => [s.id, s.querySelectorAll('li').length]),
    bold: main.querySelectorAll('b').length,
    links: [...main.querySelectorAll('a')].map((a) => a.getAttribute('href')),
    text: main.textContent ?? '',
  };
  cleanup();
  return shape;
}

afterEach(async () => {
  await act(() => i18n.changeLanguage('en'));
});

describe('terms of use in every language', () => {
  const english = outline(TermsEn);

  it.each([
    ['sw', TermsSw],
    ['lg', TermsLg],
  ])('the %s document has the same parts, lists and links as the English one', (_language, Document) => {
    const translated = outline(Document);
    expect(english.headings).toBe(7);
    expect(translated.headings).toBe(english.headings);
    expect(translated.sections).toEqual(english.sections);
    expect(translated.bold).toBe(english.bold);
    expect(translated.links).toEqual(english.links);
    expect(translated.text).not.toContain('Your account');
  });

  it('shows the reader the document in the language they chose, and follows a switch', async () => {
    renderWithProviders(<TermsPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of use and privacy' })).toBeTruthy();

    await act(() => i18n.changeLanguage('sw'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Masharti ya matumizi na faragha' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: '3. Data yako na faragha' })).toBeTruthy();
  });
});
