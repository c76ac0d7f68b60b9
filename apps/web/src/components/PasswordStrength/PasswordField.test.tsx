import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../test/render.tsx';
import { NewPasswordFields } from './NewPasswordFields.tsx';
import { PasswordField } from './PasswordField.tsx';

const noop = () => {};
const byLabel = (label: string) =>
  screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' }) as HTMLInputElement;

describe('PasswordField', () => {
  it('puts the show/hide toggle in the tab order, named for what it does, and works from the keyboard', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<PasswordField label="Password" defaultValue="Gr0w!Smart2026" />);
    await user.tab();
    expect(document.activeElement).toBe(byLabel('Password'));
    await user.tab();
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(document.activeElement).toBe(toggle);
    expect(toggle.getAttribute('tabindex')).toBe('0');
    expect(toggle.getAttribute('type')).toBe('button');
    expect(toggle.hasAttribute('aria-pressed')).toBe(false);

    await user.keyboard('{Enter}');
    expect(byLabel('Password').type).toBe('text');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Hide password' }));
    await user.keyboard(' ');
    expect(byLabel('Password').type).toBe('password');
    expect(screen.getByRole('button', { name: 'Show password' })).toBeTruthy();
  });

  it('gives each field of a new password its own reachable toggle', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<NewPasswordFields password="" confirm="" onPassword={noop} onConfirm={noop} />);
    const toggles = screen.getAllByRole('button', { name: 'Show password' });
    expect(toggles).toHaveLength(2);
    const focused: Element[] = [];
    for (let i = 0; i < 4; i++) {
      await user.tab();
      if (document.activeElement) focused.push(document.activeElement);
    }
    expect(focused).toEqual([byLabel('Password'), toggles[0], byLabel('Confirm password'), toggles[1]]);
  });
});
