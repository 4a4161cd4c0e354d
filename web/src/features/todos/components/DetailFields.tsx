import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Todo } from '@tally/contract';
import { LIMITS } from '@tally/contract/constants';
import { sortTodos } from '@tally/contract/todo-shape';
import { SelectField, TextField } from '#web/components/FormField';
import { queryKeys } from '#web/lib/query-keys';
import { useTodoSorts } from '../api/todo-sorts';
import { matchesSearch, searchTerms } from '../lib/search';
import { PRIORITY_NAMES } from '../lib/priority-names';
import { nestTodos, subtreeOf } from '../lib/subtasks';

export interface Details {
  /** As typed: names separated by spaces or commas. */
  tags: string;
  priority: number;
  parentId: number | null;
  /** YYYY-MM-DD, '' for none. */
  startDate: string;
}

export const detailsOf = (todo: Todo): Details => ({
  tags: todo.tags.join(' '),
  priority: todo.priority,
  parentId: todo.parentId,
  startDate: todo.startDate ?? '',
});

/** The tag names typed, once each ignoring case (the server keeps the first spelling too). */
function tagsOf(typed: string): string[] {
  const seen = new Map<string, string>();
  for (const word of typed.split(/[\s,]+/)) {
    const name = word.replace(/^@/, '');
    if (name && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  }
  return [...seen.values()];
}

/**
 * The fields as the API takes them. A field these controls show is read (`detailsOf`), typed
 * (`Details`) and sent (here) in this file alone; the edit form takes them as they are.
 */
export const detailsBody = (details: Details) => ({
  tags: tagsOf(details.tags),
  priority: details.priority as 0 | 1 | 2 | 3,
  parentId: details.parentId,
  startDate: details.startDate === '' ? null : details.startDate,
});

interface DetailFieldsProps {
  todo: Todo;
  value: Details;
  onChange: (change: Partial<Details>) => void;
}

/**
 * Tags, priority, parent and start date of a todo (docs/product.md, Tags, priority, subtasks).
 * The parent may be any todo of the list but this one and its own subtasks, in the order the All
 * list shows them (its sort, each subtask under its parent); "Find a parent" narrows the choices
 * to the titles holding the words typed (the chosen one stays).
 */
export function DetailFields({ todo, value, onChange }: DetailFieldsProps) {
  const queryClient = useQueryClient();
  const sorts = useTodoSorts();
  const [find, setFind] = useState('');
  const all = queryClient.getQueryData<Todo[]>(queryKeys.todos) ?? [];
  const excluded = new Set([todo.id, ...subtreeOf(all, todo.id)]);
  const terms = searchTerms(find);
  const inListOrder = nestTodos(sortTodos(all, sorts.data?.['all'] ?? 'created')).todos;
  const parents = inListOrder.filter(
    (candidate) =>
      !excluded.has(candidate.id) &&
      !candidate.completed &&
      (candidate.id === value.parentId || matchesSearch(candidate, terms)),
  );
  const tooMany = tagsOf(value.tags).length > LIMITS.tagsPerTodoMax;
  const { t, i18n } = useLingui();
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <TextField
        label={t`Tags`}
        value={value.tags}
        placeholder={t`work errands`}
        onChange={(event) => onChange({ tags: event.target.value })}
        error={
          tooMany
            ? plural(LIMITS.tagsPerTodoMax, { one: 'At most # tag', other: 'At most # tags' })
            : null
        }
      />
      <SelectField
        label={t`Priority`}
        value={String(value.priority)}
        onChange={(event) => onChange({ priority: Number(event.target.value) })}
      >
        <option value="0">{t`None`}</option>
        {([3, 2, 1] as const).map((priority) => (
          <option key={priority} value={String(priority)}>
            {i18n._(PRIORITY_NAMES[priority])}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t`Find a parent`}
        type="search"
        value={find}
        placeholder={t`Words of its title`}
        onChange={(event) => setFind(event.target.value)}
      />
      <SelectField
        label={t`Subtask of`}
        value={value.parentId === null ? '' : String(value.parentId)}
        onChange={(event) =>
          onChange({ parentId: event.target.value === '' ? null : Number(event.target.value) })
        }
      >
        <option value="">{t`None (top level)`}</option>
        {parents.map((parent) => (
          <option key={parent.id} value={String(parent.id)}>
            {parent.title}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t`Start date`}
        type="date"
        value={value.startDate}
        onChange={(event) => onChange({ startDate: event.target.value })}
      />
    </div>
  );
}
