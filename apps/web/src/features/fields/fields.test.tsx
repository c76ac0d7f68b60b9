import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import type { Field } from '@kutu/contract';
import { renderWithProviders } from '../../test/render.tsx';
import { apiError, fakeServer } from '../../test/fakeServer.ts';
import { page, testField, testWalk } from '../../test/fields.ts';
import FieldsPage from './pages/FieldsPage.tsx';
import FieldPage from './pages/FieldPage.tsx';

afterEach(() => vi.unstubAllGlobals());

const walked = testField({
  last_walk: testWalk({ looked: 50, rust: 14 }),
  remind_at: '2026-12-04T09:00:00.000Z',
  analyses: 2,
});
const beans = testField({
  id: 4,
  name: 'Hill plot',
  crop: 'beans',
  planted_on: null,
  weeks_since_planting: null,
  growth_stage: null,
});

describe('My fields', () => {
  it('lists each field with its crop, age, last walk with its share, and when Kutu asks again', async () => {
    const calls = fakeServer(({ url }) =>
      url.startsWith('/api/fields/?') ? { status: 200, body: page([walked, beans]) } : { status: 404 },
    );
    renderWithProviders(<FieldsPage />);
    const rows = await screen.findAllByTestId('field-row');
    expect(rows).toHaveLength(2);
    const [river, hill] = rows as [HTMLElement, HTMLElement];
    expect(within(river).getByRole('link', { name: 'Near the river' }).getAttribute('href')).toBe('/account/fields/3');
    expect(within(river).getByText('Maize')).toBeTruthy();
    expect(within(river).getByText('8 weeks after planting · flowering')).toBeTruthy();
    expect(within(river).getByTestId('field-last-walk').textContent).toMatch(
      /^Last walk .+: rust on 14 of 50 plants \(28\s?%\)$/,
    );
    expect(within(river).getByTestId('field-next-ask').textContent).toMatch(/^Kutu will ask for a walk on .*4/);
    expect(within(river).getByRole('link', { name: 'Walk this field' }).getAttribute('href')).toBe(
      '/account/fields/3/walk',
    );
    expect(within(hill).getByText('Planting date not given')).toBeTruthy();
    expect(within(hill).getByTestId('field-last-walk').textContent).toBe('Not walked yet');
    expect(within(hill).queryByTestId('field-next-ask')).toBeNull();
    expect(calls[0]!.url).toBe('/api/fields/?page=1&page_size=10');
  });

  it('pages through many fields', async () => {
    const calls = fakeServer(({ url }) =>
      url.startsWith('/api/fields/?') ? { status: 200, body: page([walked], 23) } : { status: 404 },
    );
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<FieldsPage />);
    await screen.findAllByTestId('field-row');
    // The page buttons load just after the list (components/ListPagination.tsx).
    await user.click(await screen.findByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('/api/fields/?page=2&page_size=10'));
  });

  it('adds a field: the name is required, and the field is sent as the contract reads it', async () => {
    const calls = fakeServer(({ method, url, body }) => {
      if (method === 'POST') return { status: 201, body: testField({ id: 9, ...(body as Partial<Field>) }) };
      return url.startsWith('/api/fields/?') ? { status: 200, body: page([]) } : { status: 404 };
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(
      <Routes>
        <Route path="/account/fields" element={<FieldsPage />} />
        <Route path="/account/fields/:id" element={<p>field page</p>} />
      </Routes>,
      { route: '/account/fields' },
    );
    await user.click(
      await within(await screen.findByTestId('fields-empty')).findByRole('button', { name: 'Add a field' }),
    );
    // The form loads on the tap (its own chunk).
    const form = await screen.findByTestId('field-form', {}, { timeout: 10_000 });
    await user.click(within(form).getByRole('button', { name: 'Save the field' }));
    expect(await within(form).findByText('Give the field a name')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.type(within(form).getByLabelText(/Name of the field/), 'Valley');
    await user.click(within(form).getByText('Beans'));
    await user.type(within(form).getByLabelText(/Size in acres/), '2.5');
    await user.type(within(form).getByLabelText(/Planting date/), '2026-10-20');
    await user.click(within(form).getByRole('button', { name: 'Save the field' }));
    await screen.findByText('field page');
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/fields/',
      body: { name: 'Valley', crop: 'beans', size_acres: '2.5', planted_on: '2026-10-20', location: null },
    });
    // The form (with the district list) loads on the tap and is typed into: slow on a shared 2-core machine.
  }, 60_000);

  it("shows the server's reason under the field it is about", async () => {
    fakeServer(({ method, url }) => {
      if (method === 'POST')
        return apiError(400, 'VALIDATION_ERROR', 'Invalid input', {
          planted_on: 'Give the planting date as a date',
        });
      return url.startsWith('/api/fields/?') ? { status: 200, body: page([]) } : { status: 404 };
    });
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<FieldsPage />);
    await user.click(
      await within(await screen.findByTestId('fields-empty')).findByRole('button', { name: 'Add a field' }),
    );
    const form = await screen.findByTestId('field-form', {}, { timeout: 10_000 });
    await user.type(within(form).getByLabelText(/Name of the field/), 'Valley');
    await user.click(within(form).getByRole('button', { name: 'Save the field' }));
    expect(await within(form).findByText('Give the planting date as a date')).toBeTruthy();
    // What was typed stays.
    expect((within(form).getByLabelText(/Name of the field/) as HTMLInputElement).value).toBe('Valley');
  });
});

describe('a field', () => {
  const before = testWalk({ looked: 50, rust: 2 }, { id: 10, walked_at: '2026-11-12T09:00:00.000Z' });
  const latest = testWalk(
    { looked: 50, rust: 14 },
    { compared: { walk_id: 10, walked_at: before.walked_at, plants_looked: 50, plants_rust: 2, outcome: 'worse' } },
  );

  function serve() {
    return fakeServer(({ method, url }) => {
      if (method === 'DELETE') return { status: 204 };
      if (url === '/api/fields/3/') return { status: 200, body: walked };
      if (url.startsWith('/api/fields/3/walks/?')) return { status: 200, body: page([latest, before]) };
      if (url.startsWith('/api/fields/?')) return { status: 200, body: page([]) };
      return { status: 404 };
    });
  }

  const renderField = () =>
    renderWithProviders(
      <Routes>
        <Route path="/account/fields/:id" element={<FieldPage />} />
        <Route path="/account/fields" element={<p>the list</p>} />
      </Routes>,
      { route: '/account/fields/3' },
    );

  it('shows its facts, a big "Walk this field", its walks compared with the one before, and its photos', async () => {
    serve();
    renderField();
    expect(await screen.findByRole('heading', { name: 'Near the river', level: 1 })).toBeTruthy();
    const facts = screen.getByTestId('field-facts').textContent;
    expect(facts).toContain('8 weeks after planting · flowering');
    expect(facts).toContain('1.5 acres');
    expect(screen.getByTestId('walk-this-field').getAttribute('href')).toBe('/account/fields/3/walk');
    const walks = await screen.findAllByTestId('walk-row');
    expect(walks).toHaveLength(2);
    expect(within(walks[0]!).getByTestId('walk-row-counts').textContent).toMatch(
      /^rust on 14 of 50 plants: 28\s?% \(the whole field likely 17\s?% to 42\s?%\)$/,
    );
    expect(within(walks[0]!).getByTestId('walk-row-compared').textContent).toBe('Worse than the walk before (2 of 50)');
    // 14 of 50 maize: 28 %, but 17 % to 42 % is not wholly over 25 %: no spray yet.
    expect(within(walks[0]!).getByText('Walk again soon')).toBeTruthy();
    expect(within(walks[1]!).queryByTestId('walk-row-compared')).toBeNull();
    expect(screen.getByText('2 photos diagnosed in this field')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See its photos' }).getAttribute('href')).toBe(
      '/account/addresses/analysis-history?field=3',
    );
  });

  it("says the week's rust weather: walk by the first high day, or 'unknown' without weather", async () => {
    const forecast = (worst: string, walkBy: string | null, state: 'known' | 'unknown') => ({
      fields: [
        {
          field_id: 3,
          name: 'Near the river',
          crop: 'maize',
          district: 'UG-219',
          worst,
          walk_by: walkBy,
          weather: { state, fetched_at: null, age_hours: state === 'known' ? 3 : null },
        },
      ],
    });
    for (const [reply, expected] of [
      [forecast('high', '2026-12-03', 'known'), /Rust may infect this week: walk this field by 3 Dec 2026/],
      [forecast('unknown', null, 'unknown'), /Rust weather this week: unknown/],
    ] as const) {
      fakeServer(({ url }) => {
        if (url === '/api/forecast/fields/') return { status: 200, body: reply };
        if (url === '/api/fields/3/') return { status: 200, body: walked };
        if (url.startsWith('/api/fields/3/walks/?')) return { status: 200, body: page([]) };
        return { status: 404 };
      });
      const { unmount } = renderField();
      expect((await screen.findByTestId('rust-weather')).textContent).toMatch(expected);
      unmount();
      vi.unstubAllGlobals();
    }
  });

  it('opens a walk’s whole answer on a tap', async () => {
    serve();
    const user = userEvent.setup({ delay: null });
    renderField();
    const [first] = await screen.findAllByTestId('walk-row');
    await user.click(within(first!).getByRole('button', { name: 'See the advice' }));
    const answer = await within(first!).findByTestId('walk-answer');
    expect(within(answer).getByTestId('walk-compared').textContent).toMatch(
      /^Worse than on .+: 14 of 50 against 2 of 50\.$/,
    );
  });

  it('is removed only after a confirmation, then the list shows', async () => {
    const calls = serve();
    const user = userEvent.setup({ delay: null });
    renderField();
    await user.click(await screen.findByRole('button', { name: 'Remove this field' }));
    expect(await screen.findByRole('dialog', { name: 'Remove Near the river?' })).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    await user.click(screen.getByTestId('retire-confirm'));
    await screen.findByText('the list');
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/fields/3/']);
  });
});
