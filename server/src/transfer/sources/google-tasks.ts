import { badRequest } from '../../shared/errors.js';
import { timeSlicer } from '../../shared/time-slices.js';
import { instant, isObject, type Json, parseJson } from './json-file.js';
import { SourceBuilder, type SourceContext, type SourceFile, type SourceTodo } from './source.js';

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * Google Tasks as Google Takeout exports it (Tasks/Tasks.json): `{"kind": "tasks#taskLists",
 * "items": [list]}`, each list `{id, title, updated, items: [task]}`, each task as the Tasks API
 * describes it: `{id, title, notes, status ("needsAction" | "completed"), due, completed,
 * updated, parent, position, links, deleted, hidden}`, times RFC 3339 in UTC.
 *
 * - A list → a group of its title; a task → a todo in it: title, notes the description, `due`
 *   (a midnight in UTC that stands for a day: Google Tasks keeps no due time) the due date,
 *   `completed` its completion, `parent` the task it is a subtask of, `updated` its last change.
 * - `links` (an e-mail a task was made from) are added to the description as Markdown links.
 * - A deleted task is skipped; a hidden one (completed and cleared) comes in completed.
 * - Takeout keeps no creation time: a todo counts as created at its last change. Repeats are
 *   not exported by Google (a repeating task is one task with its next due date).
 * A task is known again by its id.
 */
export async function readGoogleTasks(input: string, context: SourceContext): Promise<SourceFile> {
  const document = parseJson(input, 'a Google Tasks export');
  if (!isObject(document) || !Array.isArray(document.items)) {
    throw badRequest(
      'This is not a Google Tasks export: Takeout\'s Tasks.json is an object with "kind": "tasks#taskLists" and "items"',
    );
  }
  const source = new SourceBuilder();
  const pause = timeSlicer();
  let count = 0;
  for (const [listIndex, list] of document.items.entries()) {
    const listWhere = `list ${listIndex + 1}`;
    if (!isObject(list)) {
      source.skip(null, listWhere, 'The list is not an object');
      continue;
    }
    const group =
      typeof list.title === 'string'
        ? source.declareGroup({ name: list.title, color: null, createdAt: null }, null, listWhere)
        : null;
    const tasks = Array.isArray(list.items) ? list.items : [];
    for (const task of tasks as unknown[]) {
      count += 1;
      const where = `task ${count}`;
      await pause();
      if (!isObject(task) || typeof task.id !== 'string') {
        source.skip(null, where, 'The task has no id');
        continue;
      }
      if (task.deleted === true) {
        source.skip(null, where, 'It was deleted in Google Tasks');
        continue;
      }
      source.addTodo(readTask(task, group, where, source, context), {
        id: task.id,
        parentId: text(task.parent) || null,
      });
    }
  }
  source.settleParents();
  return source.file;
}

function readTask(
  task: Json,
  group: string | null,
  where: string,
  source: SourceBuilder,
  context: SourceContext,
): SourceTodo {
  const completedAt = instant(task.completed);
  const completed = task.status === 'completed' || task.hidden === true || completedAt !== null;
  const due = text(task.due);
  const dueDay = due && /^\d{4}-\d{2}-\d{2}/.test(due) ? due.slice(0, 10) : null;
  const planning = source.planning(context.checkPlanning, null, where, {
    dueDate: dueDay,
    dueTime: null,
    repeat: null,
  });
  if (due && !dueDay)
    source.warn(null, where, `Its due date "${due}" is not a date: imported without one`);
  const links = Array.isArray(task.links)
    ? task.links
        .filter(isObject)
        .map((link) => ({ url: text(link.link), label: text(link.description) ?? text(link.type) }))
        .filter((link): link is { url: string; label: string | null } => link.url !== null)
        .map((link) => `[${link.label ?? link.url}](${link.url})`)
    : [];
  const notes = text(task.notes);
  const description = [notes, ...links].filter((part) => part).join('\n\n') || null;
  const updated = instant(task.updated);
  return {
    line: null,
    where,
    key: String(task.id),
    title: text(task.title) ?? '',
    description,
    group,
    completed,
    ...planning,
    createdAt: instant(task.created) ?? updated,
    updatedAt: updated,
    completions:
      completed && completedAt !== null ? [{ at: completedAt, dueDate: planning.dueDate }] : [],
  };
}
