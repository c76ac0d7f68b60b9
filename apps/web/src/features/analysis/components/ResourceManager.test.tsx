import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import type { EducationResource } from '@kutu/contract';
import { renderWithProviders } from '../../../test/render.tsx';
import { type Call, fakeServer } from '../../../test/fakeServer.ts';
import { ResourceManager } from './ResourceManager.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
});

const english: EducationResource = {
  id: 7,
  rust_class: 'common_rust',
  title: 'Scouting maize for rust',
  url: 'https://example.org/scouting',
  description: 'Walk the field weekly and turn the lower leaves.',
  link_language: 'en',
  language: 'en',
  position: 0,
  retired: false,
  crop: 'maize',
  created_at: '2026-03-02T08:00:00.000Z',
};
const page = (results: EducationResource[]) => ({
  status: 200,
  body: { count: results.length, next: null, previous: null, results },
});

describe('experts translate a resource', () => {
  it('lists the chosen language, marks what is not written in it, and saves the Kiswahili text', async () => {
    const swahili = { title: 'Kukagua mahindi kuona kutu', description: 'Tembea shambani kila wiki.' };
    const calls = fakeServer((call: Call) =>
      call.method === 'PUT' ? { status: 200, body: { ...english, ...swahili, language: 'sw' } } : page([english]),
    );
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ResourceManager />);
    expect(await screen.findByText('Scouting maize for rust')).toBeTruthy();
    expect(calls[0]?.url).toContain('language=en');
    expect(screen.queryByTestId('not-translated')).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Kiswahili' }));
    await waitFor(() => expect(calls.some((c) => c.url.includes('language=sw'))).toBe(true));
    expect((await screen.findByTestId('not-translated')).textContent).toContain('Not written in Kiswahili yet');

    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'The resource in Kiswahili' });
    expect(within(dialog).getByText('English: Scouting maize for rust')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Title must be at least 3 characters')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await user.click(within(dialog).getByRole('textbox', { name: /Title/ }));
    await user.paste(swahili.title);
    await user.click(within(dialog).getByRole('textbox', { name: /What it covers/ }));
    await user.paste(swahili.description);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toContain('/api/education-resources/7/translations/sw/');
    expect(put?.body).toEqual(swahili);
  }, 15_000);

  it('says a new resource is written in English first when another language is chosen', async () => {
    fakeServer(() => page([english]));
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ResourceManager />);
    await screen.findByText('Scouting maize for rust');

    await user.click(screen.getByRole('button', { name: 'Add resource' }));
    expect(await screen.findByRole('dialog', { name: 'Add a resource' })).toBeTruthy();
    expect(screen.queryByTestId('add-in-english')).toBeNull();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('radio', { name: 'Luganda' }));
    await user.click(screen.getByRole('button', { name: 'Add resource' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a resource' });
    expect(within(dialog).getByTestId('add-in-english').textContent).toContain('to write its Luganda text');
  });

  it('offers to remove a translation that exists, which brings the English text back', async () => {
    const translated = { ...english, title: 'Okukebera kasooli', language: 'lg' as const };
    const calls = fakeServer((call: Call) =>
      call.method === 'DELETE' ? { status: 204 } : page([call.url.includes('language=lg') ? translated : english]),
    );
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ResourceManager />);
    await user.click(await screen.findByRole('radio', { name: 'Luganda' }));
    expect(await screen.findByText('Okukebera kasooli')).toBeTruthy();
    expect(screen.queryByTestId('not-translated')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByRole('textbox', { name: /Title/ }) as HTMLInputElement).value).toBe(
      'Okukebera kasooli',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Remove the translation' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')?.url).toContain('/api/education-resources/7/translations/lg/');
  });
});

describe('experts edit a resource', () => {
  it('keeps an order that is not a whole number with a message, and sends the order as a number', async () => {
    const calls = fakeServer((call: Call) =>
      call.method === 'PUT' ? { status: 200, body: english } : page([english]),
    );
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ResourceManager />);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    const order = within(dialog).getByRole('textbox', { name: /Order/ }) as HTMLInputElement;
    expect(order.value).toBe('0');

    await user.clear(order);
    await user.type(order, '2.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Order must be a whole number from 0 to 1000')).toBeTruthy();
    expect(order.value).toBe('2.5');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await user.clear(order);
    await user.type(order, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ position: 3 });
  });
});
