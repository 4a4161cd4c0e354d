import { plural, t, msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { BulkAction, BulkBody, Group, Todo } from '@tally/contract';
import { BULK_IDS_MAX } from '@tally/contract/constants';
import { addDays, weekdayOf } from '@tally/contract/dates';
import { offerUndo } from '#web/lib/undo';
import { errorMessage } from '#web/lib/api-client';
import { undoCallsOf, useBulkTodos } from '../api/bulk-todos';
import { BAR_BUTTON, BAR_CONTROL } from './bulk-bar-styles';
import { BulkDetails, type DetailChange } from './BulkDetails';

interface BulkBarProps {
  /** The picked todos among those the tab shows. */
  picked: readonly Todo[];
  /** How many rows the tab shows: Select all picks them (up to the bulk limit). */
  shown: number;
  groups: readonly Group[];
  /** Today's date (YYYY-MM-DD), which Today, Tomorrow and Next week count from. */
  today: string;
  onSelectAll: () => void;
  onClear: () => void;
  onDone: () => void;
}

/** What Undo's notice says was done: "3 todos completed". */
function doneText(action: BulkAction, count: number): string {
  switch (action) {
    case 'complete':
      return plural(count, { one: '# todo completed', other: '# todos completed' });
    case 'reopen':
      return plural(count, { one: '# todo reopened', other: '# todos reopened' });
    case 'move':
      return plural(count, { one: '# todo moved', other: '# todos moved' });
    case 'delete':
      return plural(count, {
        one: '# todo moved to the trash',
        other: '# todos moved to the trash',
      });
    case 'restore':
      return plural(count, { one: '# todo restored', other: '# todos restored' });
    case 'tag':
      return plural(count, { one: '# todo tagged', other: '# todos tagged' });
    case 'untag':
      return plural(count, { one: '# todo untagged', other: '# todos untagged' });
    case 'priority':
      return plural(count, { one: '# todo given a priority', other: '# todos given a priority' });
    case 'parent':
      return plural(count, {
        one: '# todo moved under a parent',
        other: '# todos moved under a parent',
      });
    case 'due':
      return plural(count, { one: '# todo given a due date', other: '# todos given a due date' });
  }
}

/** The due dates the bar offers, as the values of its select; "date" opens a date field. */
const dueChoices = (today: string) => [
  { value: today, label: t`Today` },
  { value: addDays(today, 1), label: t`Tomorrow` },
  // The Monday after today, as quick add's "next week" reads it.
  { value: addDays(today, 7 - weekdayOf(today)), label: t`Next week` },
];

const button = BAR_BUTTON;
const control = BAR_CONTROL;

/**
 * The bar of selection mode, kept in sight at the top of the screen while the list scrolls (the
 * bottom is where notices and Undo appear): how many rows are picked; Complete or Reopen (each
 * when it would change one of them), Move to a group, a due date (Today, Tomorrow, Next week, a
 * date, none), add or remove a tag, set a priority, move under a parent (BulkDetails) and Delete for all of them in one call (POST /api/todos/bulk);
 * Select all / Clear; and Done. It is one row, so that the list keeps its room (8 todos in sight
 * on a 390×844 phone, the density target; 11 on a 1280×800 desktop): the count and Done stay put
 * at its ends and the actions between them scroll sideways where they do not fit (a phone, where
 * each is 44 px high), never onto a second line.
 */
export function BulkBar({
  picked,
  shown,
  groups,
  today,
  onSelectAll,
  onClear,
  onDone,
}: BulkBarProps) {
  const { mutation, undo } = useBulkTodos();
  const { t: translate } = useLingui();
  const [pickingDate, setPickingDate] = useState(false);
  const none = picked.length === 0 || mutation.isPending;
  // Complete and Reopen show when they would change something, so the bar stays one row.
  const anyOpen = picked.some((todo) => !todo.completed);
  const anyDone = picked.some((todo) => todo.completed);
  const failed = mutation.isError ? mutation.variables.action : null;
  const tagError =
    failed === 'tag' || failed === 'untag'
      ? errorMessage(mutation.error, msg`Change todos failed`)
      : null;

  const run = (action: BulkAction, fields: Omit<Partial<BulkBody>, 'ids' | 'action'> = {}) => {
    const before = new Map(picked.map((todo) => [todo.id, todo]));
    // With the version of each todo as the person saw it: one changed elsewhere meanwhile makes
    // the call a 412 that changes nothing, and the lists show them as they are now. A todo made
    // offline and not sent yet has no version of the server's to name.
    const versions = Object.fromEntries(
      picked.filter((todo) => todo.id > 0).map((todo) => [String(todo.id), todo.version]),
    );
    const body: BulkBody = { ids: [...before.keys()], action, ...fields, versions };
    mutation.mutate(body, {
      onSuccess: (changed) => {
        onClear();
        const calls = undoCallsOf(body, changed, before);
        // Nothing changed (all were already so): nothing to take back.
        if (calls.length === 0) return;
        offerUndo(doneText(action, changed.length), () => undo(calls));
      },
    });
  };

  return (
    <div
      role="toolbar"
      aria-label={translate`Selected todos`}
      className="sticky top-0 z-20 -mx-4 mb-2 border-b border-slate-300 bg-white/95 px-4 py-1 shadow-md backdrop-blur sm:mx-0 sm:rounded-lg sm:border sm:px-2 dark:border-slate-600 dark:bg-slate-900/95"
    >
      <div className="flex items-center gap-1">
        <p
          role="status"
          className="shrink-0 pe-1 text-sm font-semibold whitespace-nowrap text-slate-900 dark:text-slate-100"
        >
          {plural(picked.length, { one: '# selected', other: '# selected' })}
        </p>
        {/* Not positioned: the tag's error (BulkDetails) shows under the bar, not clipped here. */}
        <div className="flex min-w-0 flex-1 items-center gap-1 overflow-x-auto [scrollbar-width:thin] sm:gap-0.5">
          {anyOpen || picked.length === 0 ? (
            <button
              type="button"
              className={button}
              disabled={none}
              onClick={() => run('complete')}
            >
              <Trans>Complete</Trans>
            </button>
          ) : null}
          {anyDone ? (
            <button type="button" className={button} disabled={none} onClick={() => run('reopen')}>
              <Trans>Reopen</Trans>
            </button>
          ) : null}
          <select
            aria-label={translate`Move to group`}
            value=""
            disabled={none}
            onChange={(event) =>
              run('move', {
                groupId: event.target.value === 'none' ? null : Number(event.target.value),
              })
            }
            className={`${control} max-w-32 sm:max-w-[5.5rem]`}
          >
            <option value="" disabled>
              {translate`Move to…`}
            </option>
            <option value="none">{translate`No Group`}</option>
            {groups.map((group) => (
              <option key={group.id} value={String(group.id)}>
                {group.name}
              </option>
            ))}
          </select>
          {pickingDate ? (
            <input
              type="date"
              aria-label={translate`Due date for the selected todos`}
              // The field opens in place of the select, where the choice was made.
              autoFocus
              disabled={none}
              onChange={(event) => {
                if (!event.target.value) return;
                setPickingDate(false);
                run('due', { dueDate: event.target.value });
              }}
              onKeyDown={(event) => {
                if (event.key === 'Escape') setPickingDate(false);
              }}
              onBlur={() => setPickingDate(false)}
              className={`${control} w-36`}
            />
          ) : (
            <select
              aria-label={translate`Due date`}
              value=""
              disabled={none}
              onChange={(event) => {
                const value = event.target.value;
                if (value === 'date') setPickingDate(true);
                else run('due', { dueDate: value === 'none' ? null : value });
              }}
              className={`${control} w-24 sm:w-[4.5rem]`}
            >
              <option value="" disabled>
                {translate`Due…`}
              </option>
              {dueChoices(today).map((choice) => (
                <option key={choice.label} value={choice.value}>
                  {choice.label}
                </option>
              ))}
              <option value="date">{translate`A date…`}</option>
              <option value="none">{translate`No date`}</option>
            </select>
          )}
          <BulkDetails
            picked={picked}
            disabled={none}
            tagError={tagError}
            onChange={({ action, ...fields }: DetailChange) => run(action, fields)}
          />
          <button
            type="button"
            className={`${button} text-red-700 dark:text-red-300`}
            disabled={none}
            onClick={() => run('delete')}
          >
            <Trans>Delete</Trans>
          </button>
          {picked.length < Math.min(shown, BULK_IDS_MAX) ? (
            <button type="button" className={button} onClick={onSelectAll}>
              <Trans>Select all</Trans>
            </button>
          ) : (
            <button type="button" className={button} onClick={onClear}>
              <Trans>Clear</Trans>
            </button>
          )}
        </div>
        <button type="button" className={button} onClick={onDone}>
          <Trans>Done</Trans>
        </button>
      </div>
    </div>
  );
}
