import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FailedMessage, FailedMessagePage } from '@kutu/contract';
import { renderWithProviders } from '../../../test/render.tsx';
import { fakeNetwork, json } from '../../../test/fakeServer.ts';
import { FailedMessages } from './FailedMessages.tsx';

const failed: FailedMessage = {
  id: 41,
  channel: 'sms',
  to: { id: 9, username: 'akello', address: '+256700000999' },
  text: 'Kutu: kutu ya Mahindi imethibitishwa Gulu. (1/2)\nTembelea shamba lako leo. (2/2)',
  language: 'sw',
  attempts: 6,
  reason_kind: 'number_invalid',
  reason: 'SMS gateway refused it: 403 InvalidPhoneNumber',
  report: null,
  created_at: '2027-03-01T06:00:00.000Z',
};

afterEach(() => vi.unstubAllGlobals());

describe('FailedMessages', () => {
  it('lists a failed message with its reason and sends it again, after which the list is read again', async () => {
    let list = [failed];
    const sent = fakeNetwork(({ url, method }) => {
      if (method === 'POST' && url.startsWith('/api/admin/messages/41/resend/')) {
        list = [];
        return new Response(null, { status: 204 });
      }
      if (url.startsWith('/api/admin/messages/failed/')) {
        const page: FailedMessagePage = { count: list.length, next: null, previous: null, results: list };
        return json(page);
      }
      return json({}, 404);
    });
    renderWithProviders(<FailedMessages />);
    const card = await screen.findByRole('article', { name: 'akello' });
    expect(card.textContent).toContain('To: +256700000999');
    // Why, in plain words in the administrator's language, and the gateway's own words beside them.
    expect(card.textContent).toContain(
      'Reason: The phone number is wrong or cannot receive SMS. Check it with the person.',
    );
    expect(card.textContent).toContain(
      'The gateway or mail server said: SMS gateway refused it: 403 InvalidPhoneNumber',
    );
    // The text as the farmer got it, in Kiswahili, its two parts one a line.
    expect(card.textContent).toContain('What was sent, in Kiswahili:');
    const shown = within(card).getByText(/^Kutu: kutu ya Mahindi/);
    expect(shown.getAttribute('lang')).toBe('sw');
    expect(shown.textContent).toBe(failed.text);
    expect(card.textContent).toContain('Tried 6 times');
    await userEvent.click(within(card).getByRole('button', { name: 'Send again' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'akello' })).toBeNull());
    expect(await screen.findByText('No failed messages.')).toBeTruthy();
    expect(sent.filter((s) => s.method === 'POST').map((s) => s.url)).toEqual(['/api/admin/messages/41/resend/']);
  });
});
