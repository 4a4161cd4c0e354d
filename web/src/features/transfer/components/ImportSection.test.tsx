import { QueryClientProvider } from '@tanstack/react-query';
import type { ImportReport } from '@tally/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '#web/lib/query-client';
import { json, stubFetch } from '#web/test/fake-api';
import { renderTranslated } from '#web/test/render';
import { storeSession } from '#web/test/tokens';
import { ImportSection } from './ImportSection';

/** Settings, Import: the form, the preview and the report, against a stubbed POST /api/import. */

const report = (dryRun: boolean): ImportReport => ({
  format: 'todoist-csv',
  dryRun,
  encoding: 'Windows-1252',
  groups: [
    { name: 'Work', color: '#3B82F6', existing: false, todos: 2 },
    { name: 'Home', color: '#10B981', existing: true, todos: 1 },
  ],
  todos: { created: 3, completed: 0, withDueDate: 2, repeating: 1, alreadyImported: 1 },
  preview: [
    {
      line: 3,
      where: 'line 3',
      title: 'Send the invoice',
      group: 'Work',
      completed: false,
      dueDate: '2026-04-01',
      dueTime: '09:30',
      repeat: { every: 1, unit: 'month', monthDay: 1, from: 'due' },
    },
  ],
  skipped: [{ line: 9, where: 'line 9', reason: 'It has no title' }],
  skippedCount: 1,
  warnings: [],
  warningCount: 0,
  importId: null,
});

/** The form parts a call sent (jsdom's FormData, as the client built it). */
const formOf = (init: RequestInit | undefined) => init?.body as FormData;

/** The calls that sent a file (the section also loads the import history). */
const uploads = (fetchMock: { mock: { calls: [unknown, RequestInit?][] } }) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
const noHistory = { 'GET /api/imports': () => json([]) };

beforeEach(() => {
  storeSession('alice');
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

function renderSection() {
  const user = userEvent.setup();
  renderTranslated(
    <QueryClientProvider client={createQueryClient()}>
      <ImportSection />
    </QueryClientProvider>,
  );
  return { user, section: screen.getByRole('region', { name: 'Import' }) };
}

const file = new File(['TYPE,CONTENT\r\ntask,Send the invoice\r\n'], 'work.csv', {
  type: 'text/csv',
});

describe('Import', () => {
  it('previews a file, then imports it and reports', async () => {
    const { fetchMock } = stubFetch({
      ...noHistory,
      'POST /api/import': (_call) =>
        json(report(formOf(fetchMock.mock.lastCall?.[1]).get('dryRun') === 'true')),
    });
    const { user, section } = renderSection();
    const preview = within(section).getByRole('button', { name: 'Preview' });
    expect(preview).toBeDisabled();

    await user.selectOptions(within(section).getByLabelText('Format'), 'todoist-csv');
    await user.upload(within(section).getByLabelText('File'), file);
    await user.click(preview);

    const heading = await within(section).findByRole('heading', { name: 'Preview' });
    expect(heading).toHaveFocus();
    const sent = formOf(uploads(fetchMock)[0]?.[1]);
    expect(sent.get('format')).toBe('todoist-csv');
    expect(sent.get('dryRun')).toBe('true');
    expect((sent.get('file') as File).name).toBe('work.csv');
    // The browser sets the multipart type with its boundary: the client sets none.
    expect(new Headers(uploads(fetchMock)[0]?.[1]?.headers).get('Content-Type')).toBeNull();

    expect(
      within(section).getByText(
        'Ready to import 3 todos (2 with a due date, 1 repeating) and 1 new group.',
      ),
    ).toBeInTheDocument();
    expect(
      within(section).getByText(
        'Read as Windows-1252. 1 todo of this file is already here (imported before) and is left out.',
      ),
    ).toBeInTheDocument();
    expect(
      within(within(section).getByRole('list', { name: 'Groups' })).getAllByRole('listitem'),
    ).toHaveLength(2);
    const table = within(section).getByRole('table', { name: 'The first 1 of 3 todos' });
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent(
      /^Send the invoiceWork(Wed 1 Apr|Wed, 1 Apr 2026) 09:30every month on day 1No$/,
    );
    expect(within(section).getByRole('list', { name: 'Skipped: 1 row' })).toHaveTextContent(
      'Line 9: It has no title',
    );

    await user.click(within(section).getByRole('button', { name: 'Import 3 todos' }));
    expect(await within(section).findByRole('heading', { name: 'Import report' })).toHaveFocus();
    expect(formOf(uploads(fetchMock)[1]?.[1]).get('dryRun')).toBe('false');
    expect(within(section).getByRole('status')).toHaveTextContent(
      'Imported 3 todos (2 with a due date, 1 repeating) and 1 new group. (from work.csv)',
    );
    expect(within(section).queryByRole('button', { name: /^Import \d/ })).toBeNull();
  });

  it('says why the server refused a file beside the file field, until another is chosen', async () => {
    stubFetch({
      ...noHistory,
      'POST /api/import': () =>
        json({ error: 'The file is not a Tally export: it has no "version"' }, 400),
    });
    const { user, section } = renderSection();
    const field = within(section).getByLabelText('File');
    await user.upload(field, new File(['[]'], 'todos.json'));
    await user.click(within(section).getByRole('button', { name: 'Preview' }));
    expect(
      await within(section).findByText('The file is not a Tally export: it has no "version".'),
    ).toBeInTheDocument();
    expect(field).toHaveAccessibleDescription(
      'The file is not a Tally export: it has no "version".',
    );
    // Beside the field only: no notice besides.
    expect(screen.queryByRole('alert')).toBeNull();
    await user.upload(field, new File(['{}'], 'other.json'));
    expect(field).not.toHaveAccessibleDescription();
  });

  it('refuses a file over 10 MB without sending it', async () => {
    const { fetchMock } = stubFetch(noHistory);
    const { user, section } = renderSection();
    const big = new File(['x'], 'big.json');
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 });
    await user.upload(within(section).getByLabelText('File'), big);
    await user.click(within(section).getByRole('button', { name: 'Preview' }));
    expect(within(section).getByText('The file is larger than 10 MB.')).toBeInTheDocument();
    expect(within(section).getByLabelText('File')).toHaveAttribute('aria-invalid', 'true');
    expect(uploads(fetchMock)).toEqual([]);
  });

  it('lets the columns of any CSV be chosen, previewing again with the mapping', async () => {
    const columns = (title: string) => [
      { column: 'Task', field: title === 'Task' ? ('title' as const) : null },
      { column: 'Notes', field: title === 'Notes' ? ('title' as const) : ('description' as const) },
    ];
    const { fetchMock } = stubFetch({
      ...noHistory,
      'POST /api/import': () => {
        const mapping = formOf(fetchMock.mock.lastCall?.[1]).get('mapping');
        const title = mapping ? (JSON.parse(String(mapping)) as { title: string }).title : 'Task';
        return json({ ...report(true), format: 'csv', columns: columns(title) });
      },
    });
    const { user, section } = renderSection();
    await user.selectOptions(within(section).getByLabelText('Format'), 'csv');
    await user.upload(within(section).getByLabelText('File'), file);
    await user.click(within(section).getByRole('button', { name: 'Preview' }));
    const columnsGroup = await within(section).findByRole('group', { name: 'Columns' });
    expect(within(columnsGroup).getByLabelText('Task')).toHaveValue('title');
    expect(within(columnsGroup).getByLabelText('Notes')).toHaveValue('description');

    await user.selectOptions(within(columnsGroup).getByLabelText('Notes'), 'title');
    await vi.waitFor(() => expect(uploads(fetchMock)).toHaveLength(2));
    expect(JSON.parse(String(formOf(uploads(fetchMock)[1]?.[1]).get('mapping')))).toEqual({
      title: 'Notes',
    });
    expect(await within(columnsGroup).findByLabelText('Task')).toHaveValue('');
  });

  it('lists the imports and undoes one, saying what was left alone', async () => {
    const record = {
      id: 7,
      format: 'vikunja-zip',
      fileName: 'vikunja.zip',
      createdAt: '2026-03-10T12:00:00.000Z',
      todos: 4,
      groups: 1,
      undoneAt: null,
    };
    let undone = false;
    const { calls } = stubFetch({
      'GET /api/imports': () =>
        json([{ ...record, undoneAt: undone ? '2026-03-10T12:05:00.000Z' : null }]),
      'POST /api/imports/7/undo': () => {
        undone = true;
        return json({
          trashedTodos: 3,
          deletedGroups: 1,
          keptTodos: [{ id: 3, title: 'Pay the rent', reason: 'Edited since the import' }],
          keptGroups: [],
        });
      },
    });
    const { user, section } = renderSection();
    const history = await within(section).findByRole('list', { name: 'Import history' });
    expect(history).toHaveTextContent('Vikunja export (ZIP), vikunja.zip: 4 todos, 1 new group');
    await user.click(within(history).getByRole('button', { name: 'Undo this import' }));
    expect(await within(section).findByRole('status')).toHaveTextContent(
      'Moved 3 todos to the trash and deleted 1 group. 1 todo changed since was left alone.',
    );
    expect(within(section).getByRole('list', { name: 'Left alone' })).toHaveTextContent(
      'Pay the rent: Edited since the import',
    );
    expect(
      calls.some((call) => call.method === 'POST' && call.path === '/api/imports/7/undo'),
    ).toBe(true);
    await vi.waitFor(() =>
      expect(within(section).queryByRole('button', { name: 'Undo this import' })).toBeNull(),
    );
  });
});
