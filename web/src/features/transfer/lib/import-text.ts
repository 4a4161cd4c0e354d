import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import type { ImportFormat, ImportReport } from '@tally/contract';

/** The formats in the Format list, with what each file is (docs/product.md, Settings screen). */
export const FORMAT_CHOICES: { value: ImportFormat; label: MessageDescriptor; accept: string }[] = [
  { value: 'tally-json', label: msg`Tally export (JSON)`, accept: '.json,application/json' },
  { value: 'tally-csv', label: msg`Tally export (CSV)`, accept: '.csv,text/csv' },
  { value: 'todoist-csv', label: msg`Todoist project (CSV template)`, accept: '.csv,text/csv' },
  { value: 'ticktick-csv', label: msg`TickTick backup (CSV)`, accept: '.csv,text/csv' },
  {
    value: 'google-tasks-json',
    label: msg`Google Tasks (Takeout JSON)`,
    accept: '.json,application/json',
  },
  { value: 'vikunja-zip', label: msg`Vikunja export (ZIP)`, accept: '.zip,application/zip' },
  { value: 'ics', label: msg`iCalendar tasks (.ics)`, accept: '.ics,text/calendar' },
  { value: 'csv', label: msg`Any CSV (choose the columns)`, accept: '.csv,text/csv' },
];

/** "12 todos", in the active language. */
export const todoCount = (count: number) =>
  i18n._(msg`${plural(count, { one: '# todo', other: '# todos' })}`);
/** "2 new groups", in the active language. */
export const newGroupCount = (count: number) =>
  i18n._(msg`${plural(count, { one: '# new group', other: '# new groups' })}`);

/** "12 todos (3 completed, 5 with a due date, 2 repeating)". */
function todosSummary(todos: ImportReport['todos']): string {
  const { completed, withDueDate, repeating } = todos;
  const parts = [
    completed > 0 ? i18n._(msg`${completed} completed`) : null,
    withDueDate > 0 ? i18n._(msg`${withDueDate} with a due date`) : null,
    repeating > 0 ? i18n._(msg`${repeating} repeating`) : null,
  ].filter((part) => part !== null);
  const count = todoCount(todos.created);
  if (parts.length === 0) return count;
  const details = parts.join(', ');
  return i18n._(msg`${count} (${details})`);
}

/** What the preview says will happen, or the report what did. */
export function reportHeadline(report: ImportReport): string {
  const newGroups = report.groups.filter((group) => !group.existing).length;
  const todos = todosSummary(report.todos);
  const groups = newGroupCount(newGroups);
  if (report.dryRun) {
    if (report.todos.created === 0 && newGroups === 0) return i18n._(msg`Nothing new to import.`);
    return newGroups > 0
      ? i18n._(msg`Ready to import ${todos} and ${groups}.`)
      : i18n._(msg`Ready to import ${todos}.`);
  }
  return newGroups > 0
    ? i18n._(msg`Imported ${todos} and ${groups}.`)
    : i18n._(msg`Imported ${todos}.`);
}

export const skippedHeading = ({ skippedCount }: ImportReport) =>
  i18n._(msg`Skipped: ${plural(skippedCount, { one: '# row', other: '# rows' })}`);
export const warningsHeading = ({ warningCount }: ImportReport) =>
  i18n._(msg`Imported with changes: ${plural(warningCount, { one: '# row', other: '# rows' })}`);
export const alreadyText = (report: ImportReport) => {
  const count = report.todos.alreadyImported;
  return i18n._(
    msg`${plural(count, {
      one: '# todo of this file is already here (imported before) and is left out.',
      other: '# todos of this file are already here (imported before) and are left out.',
    })}`,
  );
};
