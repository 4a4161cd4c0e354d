import type { Group, SavedFilter } from '@tally/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBackend, json, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

const work: Group = { id: 1, name: 'Work', color: '#EF4444', version: 1 };
const urgent: SavedFilter = {
  id: 5,
  name: 'Urgent work',
  color: '#EF4444',
  query: '#Work & p1',
  position: 0,
  version: 1,
};

beforeAll(async () => {
  // The screens' code is lazy (app/router.tsx): loaded before the first render.
  await import('./FilterPage');
  await import('./FilterBuilder');
});

beforeEach(() => {
  storeSession('alice');
});

describe('/filters/:id', () => {
  it("shows the todos of the filter's query, read in the browser", async () => {
    fakeBackend(
      {
        groups: [work],
        todos: [
          makeTodo({ id: 1, title: 'Ship report', groupId: 1, priority: 3 }),
          makeTodo({ id: 2, title: 'Calm task', groupId: 1 }),
          makeTodo({ id: 3, title: 'Elsewhere', priority: 3 }),
        ],
      },
      { 'GET /api/filters': () => json([urgent]) },
    );
    renderApp('/filters/5');
    expect(await screen.findByRole('heading', { name: 'Urgent work (1)' })).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Todos of Urgent work' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Ship report']);
  });

  it('writes the query from the chips and says beside the field what it cannot read', async () => {
    fakeBackend({ groups: [work] }, { 'GET /api/filters': () => json([]) });
    renderApp('/filters/new');
    const form = await screen.findByRole('form', { name: 'New filter' });
    const user = userEvent.setup();
    await within(form).findByRole('option', { name: 'Work' });
    await user.selectOptions(within(form).getByLabelText('Group'), 'Work');
    await user.selectOptions(within(form).getByLabelText('Priority'), 'p1');
    await user.type(within(form).getByLabelText('Words'), 'R&D');
    const query = within(form).getByLabelText('Query');
    expect(query).toHaveValue('#Work & p1 & search: R\\&D');
    await user.clear(query);
    await user.type(query, 'overdeu');
    expect(within(form).getByText('`overdeu` at 1: did you mean `overdue`?')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Save filter' })).toBeDisabled();
  });
});
