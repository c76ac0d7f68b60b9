import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../test/render.tsx';

afterEach(() => {
  vi.doUnmock('./lazy-schemas.ts');
  vi.resetModules();
});

/** A sign-in-like form on useLazyContractForm; `sent` records what the submit handler received. */
async function renderForm(sent: unknown[]) {
  const { useLazyContractForm } = await import('./contract-form.ts');
  function Form() {
    const { form, onSubmit, formProps } = useLazyContractForm((schemas) => schemas.loginBody, {
      initialValues: { identifier: '', password: '' },
      check: ({ identifier }) => ({ identifier: identifier.includes('!') ? 'No exclamation marks' : null }),
    });
    return (
      <form onSubmit={onSubmit((values) => void sent.push(values))} {...formProps}>
        <input aria-label="identifier" {...form.getInputProps('identifier')} />
        <span>{form.errors.identifier}</span>
        <input aria-label="password" {...form.getInputProps('password')} />
        <span>{form.errors.password}</span>
        <button type="submit">Send</button>
      </form>
    );
  }
  return renderWithProviders(<Form />);
}

describe('useLazyContractForm', () => {
  it("checks with the contract's schema once loaded on submit, and with the screen's own rule where the schema has nothing to say", async () => {
    const sent: unknown[] = [];
    await renderForm(sent);
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Enter your email or phone number')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(sent).toHaveLength(0);

    await user.type(screen.getByLabelText('identifier'), 'amina!');
    await user.type(screen.getByLabelText('password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('No exclamation marks')).toBeTruthy();
    expect(sent).toHaveLength(0);

    await user.clear(screen.getByLabelText('identifier'));
    await user.type(screen.getByLabelText('identifier'), 'amina@example.com');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(sent).toEqual([{ identifier: 'amina@example.com', password: 'secret' }]));
  });

  it('sends the form for the server to check when the schemas cannot load (offline, never cached)', async () => {
    vi.doMock('./lazy-schemas.ts', () => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    const sent: unknown[] = [];
    await renderForm(sent);
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(sent).toEqual([{ identifier: '', password: '' }]));
    expect(screen.queryByText('Password is required')).toBeNull();
  });
});
