import type { PatchTodoBody, Todo } from '@tally/contract';
import type { EditedField } from '../lib/edit-undo';
import { descriptionOrNull } from '../lib/todo-fields';
import { detailsBody, detailsOf, type Details } from './DetailFields';
import { planningBody, type Planning } from './PlanningFields';

/** What the edit form's fields hold, as typed. */
export interface FormState {
  title: string;
  description: string;
  groupId: number | null;
  planning: Planning;
  details: Details;
}

/** What the form holds, as the API takes it. */
export type FormValues = Pick<Required<PatchTodoBody>, EditedField>;

export const formStateOf = (todo: Todo): FormState => ({
  title: todo.title,
  description: todo.description ?? '',
  groupId: todo.groupId,
  planning: {
    dueDate: todo.dueDate ?? '',
    dueTime: todo.dueTime ?? '',
    repeat: todo.repeat,
    reminders: todo.reminders,
  },
  details: detailsOf(todo),
});

export const valuesOf = (state: FormState): FormValues => ({
  title: state.title.trim(),
  description: descriptionOrNull(state.description),
  groupId: state.groupId,
  ...planningBody(state.planning),
  ...detailsBody(state.details),
});

/** A todo's fields as the form would send them. */
export const valuesOfTodo = (todo: Todo): FormValues => valuesOf(formStateOf(todo));

/** `state` with `fields` set to what they are in `from`. */
export function withFields(
  state: FormState,
  from: FormState,
  fields: readonly EditedField[],
): FormState {
  const next: FormState = {
    ...state,
    planning: { ...state.planning },
    details: { ...state.details },
  };
  for (const field of fields) {
    if (field === 'title' || field === 'description' || field === 'groupId') {
      Object.assign(next, { [field]: from[field] });
    } else if (field in next.planning) {
      Object.assign(next.planning, { [field]: from.planning[field as keyof Planning] });
    } else {
      Object.assign(next.details, { [field]: from.details[field as keyof Details] });
    }
  }
  return next;
}

export const differ = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);

/** The fields whose value in `next` is not the one in `base`. */
export const changedFields = (next: FormValues, base: FormValues) =>
  (Object.keys(next) as EditedField[]).filter((field) => differ(next[field], base[field]));

/** Those fields of `values`, as a PATCH body. */
export const pick = (values: FormValues, fields: readonly EditedField[]): PatchTodoBody =>
  Object.fromEntries(fields.map((field) => [field, values[field]]));
