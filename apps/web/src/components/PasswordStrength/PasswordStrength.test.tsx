import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { passwordProblem, passwordStrength } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { meter } from './meter.ts';
import { PasswordStrength } from './PasswordStrength.tsx';

describe('password strength levels (spec point 5)', () => {
  it.each([
    ['abc', 'Too weak'],
    ['abcdef', 'Too weak'], // one kind of character
    ['abc123', 'Weak'], // 6 characters, 2 kinds
    ['Abc12!x', 'Weak'], // 4 kinds but only 7 characters
    ['Abcd12!x', 'Medium'], // 8 characters, 4 kinds
    ['Abcd12!xyz', 'Strong'], // 10 characters, 4 kinds
  ])('%s is %s', (password, level) => {
    expect(passwordStrength(password)).toBe(level);
  });

  it("refuses Weak and Too weak with 'Password is <strength>'", () => {
    expect(passwordProblem('abc123')).toBe('Password is Weak');
    expect(passwordProblem('abc')).toBe('Password is Too weak');
    expect(passwordProblem('Abcd12!x')).toBeNull();
  });
});

describe('password meter', () => {
  it('scores common passwords 0 (risky), even when they pass the character rules', async () => {
    expect(await meter('password')).toMatchObject({ score: 0, label: 'risky' });
    expect(passwordStrength('P@ssw0rd1!')).toBe('Strong');
    expect((await meter('P@ssw0rd1!')).score).toBeLessThanOrEqual(1);
  });

  it('scores a long unusual passphrase 4 (secure)', async () => {
    expect(await meter('tangerine-Kasese-drizzle-48-ox')).toMatchObject({ score: 4, label: 'secure' });
  });

  it('counts the email and username as guessable', async () => {
    const without = await meter('nakato.farm2026');
    const withInputs = await meter('nakato.farm2026', ['nakato.farm2026@example.com', 'nakato.farm2026']);
    expect(withInputs.score).toBeLessThan(without.score);
  });
});

describe('PasswordStrength', () => {
  it('shows the level on the bar and the meter label', async () => {
    renderWithProviders(<PasswordStrength password="Abcd12!x" />);
    expect(screen.getByTestId('strength-level').textContent).toBe('Medium');
    const bar = screen.getByRole('progressbar', { name: 'Password strength' });
    expect(bar.getAttribute('aria-valuetext')).toBe('Medium');
    expect(bar.getAttribute('aria-valuenow')).toBe('70');
    await waitFor(() =>
      expect(screen.getByTestId('meter-label').textContent).toMatch(/^(risky|guessable|weak|safe|secure) \(\d\/4\)$/),
    );
  });

  it('shows risky for a common password', async () => {
    renderWithProviders(<PasswordStrength password="password" />);
    expect(screen.getByTestId('strength-level').textContent).toBe('Too weak');
    await waitFor(() => expect(screen.getByTestId('meter-label').textContent).toBe('risky (0/4)'));
  });
});
