import type { Group } from '@tally/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBackend, makeTodo } from '#web/test/fake-api';
import { renderApp } from '#web/test/render';
import { storeSession } from '#web/test/tokens';

/** Due dates, repeats, quick add and the Today / Upcoming views (docs/product.md, Todos screen). */

const home: Group = { id: 2, name: 'Home', color: '#84CC16', version: 1 };

// Monday 23 November 2026, 12:00 in the browser's zone.
const NOW = new Date(2026, 10, 23, 12, 0);

beforeAll(async () => {
  // The screen's code is a lazy chunk (app/router.tsx): load it before the first render.
  await import('./TodosPage');
  // And quick add's parser, which the form loads when it opens (chrono-node is large).
  await import('../lib/quick-add');
});

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  storeSession('alice');
});

const chipTexts = () =>
  within(screen.getByRole('list', { name: 'Quick add understood' }))
    .getAllByRole('listitem')
    .map((chip) => chip.textContent?.replace('×', '').trim());

async function openForm() {
  const rendered = renderApp('/todos');
  await rendered.user.click(await screen.findByRole('button', { name: 'Add Todo' }));
  return rendered;
}

describe('/todos: quick add', () => {
  it('shows what it understood as chips and saves the rest as the title', async () => {
    const { calls } = fakeBackend({ groups: [home] });
    const { user } = await openForm();
    await user.type(
      await screen.findByLabelText('Title'),
      'Pay rent tomorrow 9:00 #home every month',
    );

    expect(
      await screen.findByRole('list', { name: 'Quick add understood' }, { timeout: 5000 }),
    ).toBeVisible();
    expect(chipTexts()).toEqual([
      'DateTomorrow',
      'Time09:00',
      'GroupHome',
      'Repeatevery month on day 24',
    ]);
    expect(screen.getByText(/^Saved as/)).toHaveTextContent('Saved as “Pay rent”');
    // The fields show what the title says.
    expect(screen.getByLabelText('Due date')).toHaveValue('2026-11-24');
    expect(screen.getByLabelText('Time')).toHaveValue('09:00');
    expect(screen.getByLabelText('Group')).toHaveValue('2');
    expect(screen.getByLabelText('Repeat')).toHaveValue('monthly');

    await user.click(screen.getByRole('button', { name: 'Create Todo' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      title: 'Pay rent',
      description: null,
      groupId: 2,
      dueDate: '2026-11-24',
      dueTime: '09:00',
      repeat: { every: 1, unit: 'month', from: 'due' },
    });
    expect(await screen.findByRole('checkbox', { name: 'Pay rent' })).toBeInTheDocument();
  });

  it('puts the words back into the title when a chip is removed', async () => {
    const { calls } = fakeBackend({ groups: [home] });
    const { user } = await openForm();
    await user.type(await screen.findByLabelText('Title'), 'Sweep #home Call Sunday');
    expect(await screen.findByRole('button', { name: 'Remove group Home' })).toBeVisible();
    expect(chipTexts()).toEqual(['DateSun 29 Nov', 'GroupHome']);

    await user.click(screen.getByRole('button', { name: 'Remove group Home' }));
    expect(await screen.findByLabelText('Title')).toHaveFocus();
    expect(screen.getByText(/^Saved as/)).toHaveTextContent('Saved as “Sweep #home Call”');
    expect(screen.getByLabelText('Group')).toHaveValue('');

    await user.click(screen.getByRole('button', { name: 'Remove date Sun 29 Nov' }));
    expect(screen.queryByRole('list', { name: 'Quick add understood' })).toBeNull();
    expect(screen.getByLabelText('Due date')).toHaveValue('');

    await user.click(screen.getByRole('button', { name: 'Create Todo' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      title: 'Sweep #home Call Sunday',
      description: null,
      groupId: null,
    });
  });

  it.each(['check money', 'may the force be with you', 'march on'])(
    'reads no date in "%s" and saves it as typed',
    async (title) => {
      const { calls } = fakeBackend({ groups: [home] });
      const { user } = await openForm();
      // The group chip shows that the parser is there and read the title.
      await user.type(await screen.findByLabelText('Title'), `${title} #home`);
      expect(
        await screen.findByRole('list', { name: 'Quick add understood' }, { timeout: 5000 }),
      ).toBeVisible();
      expect(chipTexts()).toEqual(['GroupHome']);
      expect(screen.getByLabelText('Due date')).toHaveValue('');
      await user.click(screen.getByRole('button', { name: 'Create Todo' }));
      await waitFor(() =>
        expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
          title,
          description: null,
          groupId: 2,
        }),
      );
    },
  );

  it('takes a field changed by hand over its chip', async () => {
    fakeBackend({ groups: [home] });
    const { user } = await openForm();
    await user.type(await screen.findByLabelText('Title'), 'Dentist Dec 4 at 9:30am');
    expect(await screen.findByRole('button', { name: 'Remove time 09:30' })).toBeVisible();
    await user.clear(screen.getByLabelText('Time'));
    await user.type(screen.getByLabelText('Time'), '10:15');
    expect(chipTexts()).toEqual(['DateFri 4 Dec']);
    expect(screen.getByText(/^Saved as/)).toHaveTextContent('Saved as “Dentist at 9:30am”');
    expect(screen.getByLabelText('Time')).toHaveValue('10:15');
  });
});

describe('/todos: reminders', () => {
  it('offers a reminder once a time is set, and sends it with the todo', async () => {
    const { calls } = fakeBackend({ groups: [home] });
    const { user } = await openForm();
    await user.type(await screen.findByLabelText('Title'), 'Dentist');
    const reminder = screen.getByLabelText('Reminder');
    expect(reminder).toBeDisabled();
    await user.type(screen.getByLabelText('Due date'), '2026-12-04');
    expect(reminder).toBeDisabled();
    expect(reminder).toHaveAccessibleDescription('A reminder needs a time.');
    await user.type(screen.getByLabelText('Time'), '09:30');
    expect(reminder).toBeEnabled();
    await user.selectOptions(reminder, '15 minutes before');
    await user.click(screen.getByRole('button', { name: 'Create Todo' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      title: 'Dentist',
      dueDate: '2026-12-04',
      dueTime: '09:30',
      reminders: [15],
    });
  });
});

describe('/todos: due dates on the rows', () => {
  it('labels the due date and time, and marks overdue todos in words', async () => {
    // 'Done late' is completed: the Completed part is open to show it.
    window.localStorage.setItem('completedOpen', '1');
    fakeBackend({
      todos: [
        makeTodo({ id: 1, title: 'Later', dueDate: '2027-01-04' }),
        makeTodo({ id: 2, title: 'Next week', dueDate: '2026-11-30' }),
        makeTodo({ id: 3, title: 'Tomorrow', dueDate: '2026-11-24' }),
        makeTodo({ id: 4, title: 'This evening', dueDate: '2026-11-23', dueTime: '17:00' }),
        makeTodo({ id: 5, title: 'This morning', dueDate: '2026-11-23', dueTime: '08:00' }),
        makeTodo({ id: 6, title: 'Last week', dueDate: '2026-11-16' }),
        makeTodo({ id: 7, title: 'Done late', dueDate: '2026-11-16', completed: true }),
        makeTodo({
          id: 8,
          title: 'Rent',
          dueDate: '2026-12-31',
          repeat: { every: 1, unit: 'month', monthDay: 31, from: 'due' },
        }),
        // A rule a calendar app set over CalDAV that Tally cannot represent.
        makeTodo({
          id: 9,
          title: 'Five times',
          dueDate: '2026-12-01',
          customRepeat: 'FREQ=WEEKLY;COUNT=5',
        }),
      ],
    });
    renderApp('/todos');
    const row = async (title: string) =>
      (await screen.findByRole('checkbox', { name: title })).closest('li') as HTMLElement;

    expect(await row('Later')).toHaveTextContent('DueMon, 4 Jan 2027');
    expect(await row('Next week')).toHaveTextContent('DueMon 30 Nov');
    expect(await row('Tomorrow')).toHaveTextContent('DueTomorrow');
    expect(await row('This evening')).toHaveTextContent('DueToday 17:00');
    expect(await row('This morning')).toHaveTextContent('Overdue:Today 08:00');
    expect(await row('Last week')).toHaveTextContent('Overdue:Mon 16 Nov');
    expect(await row('Done late')).not.toHaveTextContent('Overdue');
    expect(within(await row('Rent')).getByRole('img')).toHaveAccessibleName(
      'Repeats every month on day 31',
    );
    expect(within(await row('Rent')).getByRole('button', { name: 'Skip Rent' })).toBeVisible();
    expect(within(await row('Five times')).getByRole('img')).toHaveAccessibleName(
      'Custom repeat from a calendar app: FREQ=WEEKLY;COUNT=5',
    );
    expect(within(await row('Later')).queryByRole('button', { name: /^Skip/ })).toBeNull();
  });

  it('completes a repeating todo: it stays open with its next date', async () => {
    fakeBackend({
      todos: [
        makeTodo({
          id: 8,
          title: 'Water plants',
          dueDate: '2026-11-23',
          repeat: { every: 3, unit: 'day', from: 'due' },
        }),
      ],
    });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('checkbox', { name: 'Water plants' }));
    // The one message of the completion, the Undo toast, names the next date.
    expect(await screen.findByTestId('undo-toast')).toHaveTextContent(
      'Completed "Water plants". Next due Thu 26 Nov.',
    );
    const checkbox = screen.getByRole('checkbox', { name: 'Water plants' });
    expect(checkbox).not.toBeChecked();
    expect(checkbox.closest('li')).toHaveTextContent('DueThu 26 Nov');
  });

  it('skips an occurrence', async () => {
    const { calls } = fakeBackend(
      {
        todos: [
          makeTodo({
            id: 8,
            title: 'Rent',
            dueDate: '2026-11-30',
            repeat: { every: 1, unit: 'month', monthDay: 30, from: 'due' },
          }),
        ],
      },
      {
        'POST /api/todos/:id/skip': () =>
          new Response(
            JSON.stringify(
              makeTodo({
                id: 8,
                title: 'Rent',
                dueDate: '2026-12-30',
                repeat: { every: 1, unit: 'month', monthDay: 30, from: 'due' },
              }),
            ),
            { status: 200, headers: { 'Content-Type': 'application/json' } },
          ),
      },
    );
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Skip Rent' }));
    expect(await screen.findByText('Rent: skipped. Next due Wed 30 Dec.')).toBeVisible();
    expect(screen.getByRole('checkbox', { name: 'Rent' }).closest('li')).toHaveTextContent(
      'DueWed 30 Dec',
    );
    expect(calls.some((call) => call.method === 'POST' && call.path === '/api/todos/8/skip')).toBe(
      true,
    );
  });

  it('puts the due and start dates back when a skip is undone', async () => {
    const repeat = { every: 1, unit: 'month', monthDay: 30, from: 'due' } as const;
    const { calls } = fakeBackend(
      {
        todos: [
          makeTodo({
            id: 8,
            title: 'Rent',
            dueDate: '2026-11-30',
            startDate: '2026-11-01',
            repeat,
          }),
        ],
      },
      {
        'POST /api/todos/:id/skip': () =>
          new Response(
            JSON.stringify(
              makeTodo({
                id: 8,
                title: 'Rent',
                dueDate: '2026-12-30',
                startDate: '2026-12-01',
                repeat,
              }),
            ),
            { status: 200, headers: { 'Content-Type': 'application/json' } },
          ),
      },
    );
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Skip Rent' }));
    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(
        calls.find((call) => call.method === 'PATCH' && call.path === '/api/todos/8')?.body,
      ).toMatchObject({ dueDate: '2026-11-30', dueTime: null, startDate: '2026-11-01' }),
    );
  });
});

describe('/todos: the due date, time and repeat fields', () => {
  it('need a date for a time or a repeat', async () => {
    fakeBackend();
    const { user } = await openForm();
    expect(screen.getByLabelText('Time')).toBeDisabled();
    expect(screen.getByLabelText('Repeat')).toBeDisabled();
    expect(screen.getByLabelText('Repeat')).toHaveAccessibleDescription(
      'A time and a repeat need a due date.',
    );
    await user.type(screen.getByLabelText('Due date'), '2026-12-01');
    expect(screen.getByLabelText('Time')).toBeEnabled();
    expect(screen.getByLabelText('Repeat')).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Clear due date' }));
    expect(screen.getByLabelText('Due date')).toHaveValue('');
    expect(screen.getByLabelText('Time')).toBeDisabled();
  });

  it('offers the presets and a custom rule with weekdays, monthly choices and its count', async () => {
    const { calls } = fakeBackend();
    const { user } = await openForm();
    await user.type(await screen.findByLabelText('Title'), 'Gym');
    await user.type(screen.getByLabelText('Due date'), '2026-11-26');
    const repeat = screen.getByLabelText('Repeat');
    expect(
      within(repeat)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Never', 'Daily', 'Weekdays', 'Weekly', 'Monthly', 'Yearly', 'Custom…']);

    await user.selectOptions(repeat, 'Custom…');
    const custom = screen.getByRole('group', { name: 'Custom repeat' });
    // Weekly on the due date's weekday to start with.
    expect(within(custom).getByLabelText('Every')).toHaveValue(1);
    expect(within(custom).getByLabelText('Unit')).toHaveValue('week');
    expect(within(custom).getByRole('checkbox', { name: 'Thursday' })).toBeChecked();
    await user.click(within(custom).getByRole('checkbox', { name: 'Monday' }));
    await user.clear(within(custom).getByLabelText('Every'));
    await user.type(within(custom).getByLabelText('Every'), '2');
    await user.click(within(custom).getByRole('radio', { name: 'Completion' }));

    // Monthly: on the day, or on the nth / last weekday of the due date.
    await user.selectOptions(within(custom).getByLabelText('Unit'), 'months');
    const on = within(custom).getByRole('group', { name: 'On' });
    expect(within(on).getByRole('radio', { name: 'Day 26' })).toBeChecked();
    expect(within(on).getByRole('radio', { name: 'The fourth Thursday' })).toBeVisible();
    expect(within(on).getByRole('radio', { name: 'The last Thursday' })).toBeVisible();
    await user.click(within(on).getByRole('radio', { name: 'The last Thursday' }));

    await user.click(screen.getByRole('button', { name: 'Create Todo' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        title: 'Gym',
        description: null,
        groupId: null,
        dueDate: '2026-11-26',
        repeat: {
          every: 2,
          unit: 'month',
          nthWeekday: { n: -1, weekday: 'thu' },
          from: 'completion',
        },
      }),
    );
  });

  it('sends weekly custom days', async () => {
    const { calls } = fakeBackend();
    const { user } = await openForm();
    await user.type(await screen.findByLabelText('Title'), 'Gym');
    await user.type(screen.getByLabelText('Due date'), '2026-11-26');
    await user.selectOptions(screen.getByLabelText('Repeat'), 'Custom…');
    await user.click(screen.getByRole('checkbox', { name: 'Monday' }));
    await user.click(screen.getByRole('button', { name: 'Create Todo' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
        repeat: { every: 1, unit: 'week', weekdays: ['mon', 'thu'], from: 'due' },
      }),
    );
  });

  it('edits the planning of a todo, and a cleared date is sent as null', async () => {
    const { calls } = fakeBackend({
      todos: [
        makeTodo({
          id: 8,
          title: 'Rent',
          dueDate: '2026-11-30',
          dueTime: '09:00',
          repeat: { every: 1, unit: 'month', monthDay: 30, from: 'due' },
        }),
      ],
    });
    const { user } = renderApp('/todos');
    await user.click(await screen.findByRole('button', { name: 'Edit Rent' }));
    const form = await screen.findByRole('form', { name: 'Edit todo Rent' });
    expect(within(form).getByLabelText('Due date')).toHaveValue('2026-11-30');
    expect(within(form).getByLabelText('Time')).toHaveValue('09:00');
    expect(within(form).getByLabelText('Repeat')).toHaveValue('monthly');

    await user.clear(within(form).getByLabelText('Due date'));
    await user.type(within(form).getByLabelText('Due date'), '2026-12-01');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: 'Rent' }).closest('li')).toHaveTextContent(
        'DueTue 1 Dec 09:00',
      ),
    );
    // Only the field changed: the time and the repeat stay as the server has them.
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ dueDate: '2026-12-01' });

    await user.click(screen.getByRole('button', { name: 'Edit Rent' }));
    await user.click(screen.getByRole('button', { name: 'Clear due date' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'PATCH')[1]?.body).toMatchObject({
        dueDate: null,
        dueTime: null,
        repeat: null,
      }),
    );
    expect(screen.getByRole('checkbox', { name: 'Rent' }).closest('li')).not.toHaveTextContent(
      'Due',
    );
  });
});

describe('/todos: the Today and Upcoming views', () => {
  const planned = [
    makeTodo({ id: 1, title: 'Last week', dueDate: '2026-11-16' }),
    makeTodo({ id: 2, title: 'Today', dueDate: '2026-11-23', dueTime: '17:00' }),
    makeTodo({ id: 3, title: 'Tomorrow', dueDate: '2026-11-24' }),
    makeTodo({ id: 4, title: 'Sunday', dueDate: '2026-11-29' }),
    makeTodo({ id: 5, title: 'In a week', dueDate: '2026-11-30' }),
    makeTodo({ id: 6, title: 'Someday' }),
  ];
  const sections = () =>
    within(screen.getByRole('main'))
      .getAllByRole('region')
      .map((section) => ({
        heading: within(section).getByRole('heading').textContent,
        titles: within(section)
          .getAllByRole('checkbox')
          .map((box) => (box as HTMLInputElement).labels?.[0]?.textContent),
      }));

  it('switches views by the address, which keeps the view', async () => {
    const { calls } = fakeBackend({ todos: planned });
    const { user } = renderApp('/todos');
    const views = await screen.findByRole('navigation', { name: 'Todo views' });
    expect(within(views).getByRole('link', { name: 'All' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(await screen.findByRole('tab', { name: 'All (6)' })).toBeInTheDocument();

    await user.click(within(views).getByRole('link', { name: 'Today' }));
    expect(window.location.search).toBe('?view=today');
    expect(within(views).getByRole('link', { name: 'Today' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await screen.findByRole('heading', { name: 'Overdue' });
    expect(sections()).toEqual([
      { heading: 'Overdue', titles: ['Last week'] },
      { heading: 'Today', titles: ['Today'] },
    ]);
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(calls.some((call) => call.search.get('view') === 'today')).toBe(true);

    await user.click(within(views).getByRole('link', { name: 'Upcoming' }));
    await screen.findByRole('heading', { name: 'Tomorrow' });
    expect(sections()).toEqual([
      { heading: 'Today', titles: ['Today'] },
      { heading: 'Tomorrow', titles: ['Tomorrow'] },
      { heading: 'Sun 29 Nov', titles: ['Sunday'] },
      // Past the server's seven days, from the list the browser holds.
      { heading: 'Mon 30 Nov', titles: ['In a week'] },
    ]);
  });

  it('Upcoming goes on past seven days, a week more with each "Show more days"', async () => {
    fakeBackend({
      todos: [
        makeTodo({ id: 1, title: 'Tomorrow', dueDate: '2026-11-24' }),
        makeTodo({ id: 2, title: 'In ten days', dueDate: '2026-12-03' }),
        makeTodo({ id: 3, title: 'In two and a half weeks', dueDate: '2026-12-10' }),
        makeTodo({ id: 4, title: 'Done later', dueDate: '2026-12-02', completed: true }),
      ],
    });
    const { user } = renderApp('/todos?view=upcoming');
    await screen.findByRole('heading', { name: 'Thu 3 Dec' });
    expect(sections()).toEqual([
      { heading: 'Tomorrow', titles: ['Tomorrow'] },
      { heading: 'Thu 3 Dec', titles: ['In ten days'] },
    ]);
    await user.click(screen.getByRole('button', { name: 'Show more days' }));
    expect(await screen.findByRole('heading', { name: 'Thu 10 Dec' })).toBeVisible();
  });

  it('opens on the view of the address, and updates it after a change', async () => {
    fakeBackend({ todos: planned });
    const { user } = renderApp('/todos?view=today');
    await screen.findByRole('heading', { name: 'Overdue' });
    // The new-todo form starts on today in the Today view.
    await user.click(screen.getByRole('button', { name: 'Add Todo' }));
    expect(screen.getByLabelText('Due date')).toHaveValue('2026-11-23');
    await user.type(await screen.findByLabelText('Title'), 'Call the bank');
    await user.click(screen.getByRole('button', { name: 'Create Todo' }));
    await waitFor(() =>
      expect(sections()).toEqual([
        { heading: 'Overdue', titles: ['Last week'] },
        { heading: 'Today', titles: ['Call the bank', 'Today'] },
      ]),
    );
    // Completed, it leaves the view.
    await user.click(screen.getByRole('checkbox', { name: 'Last week' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Overdue' })).toBeNull());
  });

  it('moves to the new day after midnight', async () => {
    vi.setSystemTime(new Date(2026, 10, 23, 23, 59, 30));
    storeSession('alice'); // a token of that moment
    const { calls } = fakeBackend({ todos: planned });
    renderApp('/todos?view=today');
    await screen.findByRole('heading', { name: 'Overdue' });
    expect(sections()).toEqual([
      { heading: 'Overdue', titles: ['Last week'] },
      { heading: 'Today', titles: ['Today'] },
    ]);

    // The page comes back after midnight (the minute timer would get there too).
    vi.setSystemTime(new Date(2026, 10, 24, 0, 5));
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await waitFor(() =>
      expect(sections()).toEqual([
        { heading: 'Overdue', titles: ['Last week', 'Today'] },
        { heading: 'Today', titles: ['Tomorrow'] },
      ]),
    );
    expect(calls.filter((call) => call.search.get('view') === 'today')).toHaveLength(2);
  });

  it('says when nothing is due', async () => {
    fakeBackend({ todos: [makeTodo({ id: 6, title: 'Someday' })] });
    renderApp('/todos?view=upcoming');
    expect(await screen.findByText('Nothing due in the next 7 days.')).toBeVisible();
  });
});
