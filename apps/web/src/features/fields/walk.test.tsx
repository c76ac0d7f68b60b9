import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type { WalkInput } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { fakeNetwork, json } from '../../test/fakeServer.ts';
import { page, testField, testWalk } from '../../test/fields.ts';
import type { QueuedWalk } from '../../lib/offline/store.ts';
import { latestWalk, walkOnPhone } from '../../lib/offline/walks.ts';
import { WalkAnswer } from './components/WalkAnswer.tsx';
import WalkPage from './pages/WalkPage.tsx';

afterEach(() => vi.unstubAllGlobals());

const before = testWalk({ looked: 50, rust: 2 }, { id: 10, walked_at: '2026-11-12T09:00:00.000Z' });
const field = testField({ last_walk: before });

function renderWalk(id = 3) {
  return renderWithProviders(
    <Routes>
      <Route path="/account/fields/:id/walk" element={<WalkPage />} />
    </Routes>,
    { route: `/account/fields/${id}/walk` },
  );
}

/** Sets a stop's count by typing it, as a farmer may instead of tapping. */
async function type(user: ReturnType<typeof userEvent.setup>, testId: string, value: number) {
  const input = within(screen.getByTestId(testId)).getByRole('textbox');
  await user.clear(input);
  await user.type(input, String(value));
}

describe('a scouting walk', () => {
  it('walks through the stops with big +/− counts, rust never above the plants looked at', async () => {
    fakeNetwork(({ url }) => (url === '/api/fields/3/' ? json(field) : json({}, 404)));
    const user = userEvent.setup({ delay: null });
    renderWalk();
    const how = await screen.findByTestId('walk-how');
    expect(how.textContent).toContain('Walk across the field in a W');
    expect(how.textContent).toContain('Stop 5 times along the W');
    await user.click(screen.getByTestId('walk-start'));

    expect(screen.getByTestId('walk-stop-title').textContent).toBe('Stop 1 of 5');
    expect((screen.getByTestId('stop-looked-value') as HTMLInputElement).value).toBe('10');
    const moreRust = screen.getByRole('button', { name: 'One more: Plants with rust' });
    // Each +/− is at least 48 px square, for a thumb.
    expect(moreRust.getAttribute('style')).toMatch(/--ai-size: calc\(4rem/);
    for (let i = 0; i < 12; i++) if (!moreRust.hasAttribute('disabled')) await user.click(moreRust);
    expect((screen.getByTestId('stop-rust-value') as HTMLInputElement).value).toBe('10');
    expect(moreRust.hasAttribute('disabled')).toBe(true);
    // A valid count at the most it can be: said as a fact, not with an error's words.
    expect(screen.getByText('That is every plant you looked at: all of them have rust.')).toBeTruthy();
    expect(screen.queryByText(/cannot be more than/)).toBeNull();
    // Fewer plants looked at take the plants with rust down with them.
    await user.click(screen.getByRole('button', { name: 'One less: Plants looked at' }));
    expect((screen.getByTestId('stop-rust-value') as HTMLInputElement).value).toBe('9');
    await type(user, 'stop-rust', 40);
    expect((screen.getByTestId('stop-rust-value') as HTMLInputElement).value).toBe('9');

    await user.click(screen.getByRole('button', { name: 'Next stop' }));
    expect(screen.getByTestId('walk-stop-title').textContent).toBe('Stop 2 of 5');
    await user.click(screen.getByRole('button', { name: 'Add a stop' }));
    expect(screen.getByTestId('walk-stop-title').textContent).toBe('Stop 3 of 6');
    await user.click(screen.getByRole('button', { name: 'Skip this stop' }));
    expect(screen.getByTestId('walk-stop-title').textContent).toBe('Stop 3 of 5');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByTestId('stop-rust-value')).toHaveProperty('value', '9');
    // The two stops counted (9 and 10 plants): not the one that moved up after the skip, nor those ahead.
    expect(screen.getByTestId('walk-totals').textContent).toBe('So far: rust on 9 of 19 plants');
  });

  it('counts "so far" over the stops walked: the first stop is 10 plants, not the 50 of the whole walk', async () => {
    fakeNetwork(({ url }) => (url === '/api/fields/3/' ? json(field) : json({}, 404)));
    const user = userEvent.setup({ delay: null });
    renderWalk();
    await user.click(await screen.findByTestId('walk-start'));
    await type(user, 'stop-rust', 3);
    expect(screen.getByTestId('walk-totals').textContent).toBe('So far: rust on 3 of 10 plants');
    await user.click(screen.getByRole('button', { name: 'Next stop' }));
    await user.click(screen.getByRole('button', { name: 'Next stop' }));
    expect(screen.getByTestId('walk-totals').textContent).toBe('So far: rust on 3 of 20 plants');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByTestId('walk-totals').textContent).toBe('So far: rust on 3 of 20 plants');
  });

  it('counts "so far" over the stops entered: 1 of 4 after the first stop, not 1 of 14 with the next stop\'s planned 10', async () => {
    fakeNetwork(({ url }) => (url === '/api/fields/3/' ? json(field) : json({}, 404)));
    const user = userEvent.setup({ delay: null });
    renderWalk();
    await user.click(await screen.findByRole('button', { name: 'Start the walk' }));
    // Nothing counted yet: no line of totals that would read the planned 10 plants as looked at.
    expect(screen.queryByTestId('walk-totals')).toBeNull();
    await type(user, 'stop-looked', 4);
    await type(user, 'stop-rust', 1);
    expect(screen.getByTestId('walk-totals').textContent).toBe('So far: rust on 1 of 4 plants');
    await user.click(screen.getByRole('button', { name: 'Next stop' }));
    expect(screen.getByTestId('walk-stop-title').textContent).toBe('Stop 2 of 5');
    // Stop 2 shows its planned 10 plants, but the farmer has not counted them: they are not "so far".
    expect((screen.getByTestId('stop-looked-value') as HTMLInputElement).value).toBe('10');
    expect(screen.getByTestId('walk-totals').textContent).toBe('So far: rust on 1 of 4 plants');
    await user.click(screen.getByRole('button', { name: 'One more: Plants with rust' }));
    expect(screen.getByTestId('walk-totals').textContent).toBe('So far: rust on 2 of 14 plants');
    // Back at stop 1, the two stops counted stay; the three ahead were never walked.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByTestId('walk-totals').textContent).toBe('So far: rust on 2 of 14 plants');
  });

  it("sends the walk with its key and time, and shows the server's answer: the steps, what they rest on, the comparison and sources", async () => {
    const answer = testWalk(
      { looked: 50, rust: 14 },
      { compared: { walk_id: 10, walked_at: before.walked_at, plants_looked: 50, plants_rust: 2, outcome: 'worse' } },
    );
    const sent = fakeNetwork(({ method, url }) => {
      if (method === 'POST') return json(answer, 201);
      if (url === '/api/fields/3/') return json(field);
      return url.startsWith('/api/fields/?') ? json(page([field])) : json({}, 404);
    });
    const user = userEvent.setup({ delay: null });
    renderWalk();
    await user.click(await screen.findByTestId('walk-start'));
    for (const rust of [3, 2, 4, 1, 4]) {
      await type(user, 'stop-rust', rust);
      const next = screen.queryByRole('button', { name: 'Next stop' });
      if (next) await user.click(next);
    }
    await user.click(screen.getByTestId('walk-finish'));
    const shown = await screen.findByTestId('walk-answer');

    const post = sent.find((s) => s.method === 'POST')!;
    expect(post.url).toBe('/api/fields/3/walks/');
    expect(post.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    const body = post.body as WalkInput;
    expect(body.stops).toEqual([3, 2, 4, 1, 4].map((rust) => ({ looked: 10, rust })));
    expect(Math.abs(Date.parse(body.walked_at!) - Date.now())).toBeLessThan(60_000);
    expect(body.growth_stage).toBeUndefined();

    // 28 % of the maize plants, but 17 % to 42 %: near the threshold of 25 %, after a full walk.
    expect(within(shown).getByRole('heading', { name: 'Walk again soon' })).toBeTruthy();
    expect(within(shown).getByTestId('walk-steps').textContent).toMatch(
      /^Do not spray yet: rust is close to the level where a spray pays.+Counting more plants today will not settle it/,
    );
    expect(within(shown).getByTestId('walk-rests-on').textContent).toBe(
      'This rests on: rust on 14 of 50 plants, maize at 8 weeks.',
    );
    expect(within(shown).getByTestId('walk-incidence').textContent).toMatch(
      /^About 28\s?% of the plants you looked at have rust\. For 50 plants, the whole field likely has between 17\s?% and 42\s?%\.$/,
    );
    expect(within(shown).getByTestId('walk-compared').textContent).toMatch(
      /^Worse than on .+: 14 of 50 against 2 of 50\.$/,
    );
    expect(within(shown).getByTestId('walk-next').textContent).toMatch(
      /^Kutu will ask you to walk this field again on .*4/,
    );
    const links = within(within(shown).getByTestId('walk-sources')).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toContain(
      'https://extension.umn.edu/corn-pest-management/common-rust-corn',
    );
    expect(within(shown).queryByTestId('walk-on-phone')).toBeNull();
  });

  it('asks the stage of a field with no planting date, and sends the one said', async () => {
    const undated = testField({ planted_on: null, weeks_since_planting: null, growth_stage: null });
    const sent = fakeNetwork(({ method, url }) => {
      if (method === 'POST') return json(testWalk({ looked: 50, rust: 0 }, {}, undated), 201);
      return url === '/api/fields/3/' ? json(undated) : json({}, 404);
    });
    const user = userEvent.setup({ delay: null });
    renderWalk();
    await user.selectOptions(await screen.findByLabelText(/How far is the crop now/), 'grain_filling');
    await user.click(screen.getByTestId('walk-start'));
    for (let i = 0; i < 4; i++) await user.click(screen.getByRole('button', { name: 'Next stop' }));
    await user.click(screen.getByTestId('walk-finish'));
    await screen.findByTestId('walk-answer');
    expect((sent.find((s) => s.method === 'POST')!.body as WalkInput).growth_stage).toBe('grain_filling');
  });
});

describe('a walk worked out on the phone (no signal)', () => {
  const body = (rust: number) => ({
    stops: [{ looked: 50, rust }],
    walked_at: '2026-11-27T09:00:00.000Z',
  });

  it('gives different advice for 20 and for 2 plants in 50 at the same stage, each naming its count', () => {
    const many = walkOnPhone(field, body(20), before);
    const few = walkOnPhone(field, body(2), before);
    expect(many.advice.action).toBe('spray_now');
    expect(few.advice.action).toBe('walk_again');
    expect(many.weeks_since_planting).toBe(8);
    expect(many.compared).toMatchObject({ walk_id: 10, plants_rust: 2, outcome: 'worse' });
    expect(few.compared?.outcome).toBe('same');

    const { unmount } = renderWithProviders(<WalkAnswer walk={many} onPhone />);
    expect(screen.getByTestId('walk-on-phone').textContent).toBe(
      "Worked out on your phone — it will be sent when you're online",
    );
    expect(screen.getByTestId('walk-rests-on').textContent).toBe(
      'This rests on: rust on 20 of 50 plants, maize at 8 weeks.',
    );
    const sprayed = screen.getByTestId('walk-steps').textContent;
    unmount();
    renderWithProviders(<WalkAnswer walk={few} onPhone />);
    expect(screen.getByTestId('walk-rests-on').textContent).toBe(
      'This rests on: rust on 2 of 50 plants, maize at 8 weeks.',
    );
    expect(screen.getByTestId('walk-steps').textContent).not.toBe(sprayed);
    expect(screen.getByTestId('walk-steps').textContent).toContain('Walk this field again within a week');
  });

  it('compares with a walk still waiting on the phone when it is newer than the last one sent', () => {
    const waiting = walkOnPhone(
      field,
      { stops: [{ looked: 50, rust: 20 }], walked_at: '2026-11-20T09:00:00.000Z' },
      before,
    );
    const queued: QueuedWalk[] = [
      {
        key: 'k1',
        userId: 1,
        fieldId: 3,
        body: { stops: [], walked_at: waiting.walked_at },
        answer: waiting,
        error: null,
      },
      {
        key: 'k2',
        userId: 1,
        fieldId: 4,
        body: { stops: [], walked_at: '2026-11-26T09:00:00.000Z' },
        answer: { ...waiting, walked_at: '2026-11-26T09:00:00.000Z' },
        error: null,
      },
    ];
    expect(latestWalk(field, queued)).toBe(waiting);
    expect(latestWalk(field, [])).toBe(before);
    expect(walkOnPhone(field, body(2), latestWalk(field, queued)).compared?.outcome).toBe('better');
  });

  it('says it cannot tell yet, without blaming the count, when the counts cannot tell a change from chance', () => {
    const small = testWalk({ looked: 5, rust: 1 }, { id: 12 });
    const now = walkOnPhone(field, { stops: [{ looked: 6, rust: 3 }], walked_at: '2026-11-27T09:00:00.000Z' }, small);
    expect(now.compared?.outcome).toBe('too_few_plants');
    renderWithProviders(<WalkAnswer walk={now} onPhone />);
    expect(screen.getByTestId('walk-compared').textContent).toMatch(
      /^Kutu cannot tell yet whether rust changed since .+ \(3 of 6 against 1 of 5\): the two counts are too close to call\. Walk the field again as planned\.$/,
    );

    // 3 rusty plants of 6 bears no spray yet: the first step is a full walk.
    expect(screen.getByTestId('walk-steps').textContent).toMatch(/^Before you spray, count 50 plants/);
    // A 50-plant walk (the protocol's count) is never told to count more plants.
    const fifty = testWalk({ looked: 50, rust: 14 }, { id: 13 });
    const next = walkOnPhone(
      field,
      { stops: [{ looked: 50, rust: 20 }], walked_at: '2026-11-27T09:00:00.000Z' },
      fifty,
    );
    expect(next.compared?.outcome).toBe('too_few_plants');
    renderWithProviders(<WalkAnswer walk={next} />);
    expect(screen.getAllByTestId('walk-compared').at(-1)!.textContent).toMatch(
      /^Kutu cannot tell yet whether rust changed/,
    );
    expect(screen.getAllByTestId('walk-compared').at(-1)!.textContent).not.toMatch(/Count more plants|Too few plants/);
    // One plant looked at: "1 plant", not "1 plants".
    const one = walkOnPhone(field, { stops: [{ looked: 1, rust: 1 }], walked_at: '2026-11-28T09:00:00.000Z' }, null);
    renderWithProviders(<WalkAnswer walk={one} />);
    expect(screen.getAllByTestId('walk-incidence').at(-1)!.textContent).toMatch(/For 1 plant, /);
  });
});
