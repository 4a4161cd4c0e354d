import type { Repeat } from '@tally/contract';
import { dateInZone, localDateTime } from '../../shared/calendar.js';
import { badRequest } from '../../shared/errors.js';
import { timeSlicer } from '../../shared/time-slices.js';
import { instant, isObject, type Json, parseJson } from './json-file.js';
import { SourceBuilder, type SourceContext, type SourceFile, type SourceTodo } from './source.js';

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const DAY_SECONDS = 86_400;

/** Vikunja's priorities: 0 unset, 1 low, 2 medium, 3 high, 4 urgent, 5 do now. */
const priorityOf = (value: unknown) =>
  typeof value === 'number' && value > 0 ? Math.min(3, Math.floor(value)) : 0;

/**
 * Vikunja's repeat: `repeat_after` seconds from the due date (mode 0), from the day it is done
 * (mode 2), or every month (mode 1, whatever `repeat_after` says). Whole weeks and days are
 * kept; anything else (every 5 hours) is not a repeat Tally has.
 */
function repeatOf(task: Json): Repeat | null | 'unsupported' {
  const after = typeof task.repeat_after === 'number' ? task.repeat_after : 0;
  const mode = task.repeat_mode;
  if (mode === 1) return { every: 1, unit: 'month', from: 'due' };
  if (after <= 0) return null;
  const from = mode === 2 ? ('completion' as const) : ('due' as const);
  if (after % (7 * DAY_SECONDS) === 0 && after / (7 * DAY_SECONDS) <= 52) {
    return { every: after / (7 * DAY_SECONDS), unit: 'week', from };
  }
  if (after % DAY_SECONDS === 0 && after / DAY_SECONDS <= 365) {
    return { every: after / DAY_SECONDS, unit: 'day', from };
  }
  return 'unsupported';
}

const ENTITIES: Record<string, string> = {
  '&nbsp;': ' ',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&amp;': '&',
};
/** Tags that end a line of text: the end of a block, or a line break. */
const BLOCK = /^(\/(p|li|h[1-6]|blockquote|pre|div|ul|ol)|br)\b/i;

/**
 * HTML as Vikunja's editor writes descriptions and comments (<p>, <br>, lists, links), as
 * plain text with Markdown's line breaks and links: paragraphs and list items on their own
 * lines, links as [text](href), other tags dropped, the common entities read. Tally keeps
 * Markdown; the text is stored, never run, so a tag left out loses only its looks. One pass
 * from each `<` to the next `>`, so no text makes it slow.
 */
function htmlToText(html: string): string {
  if (!/<[a-z/]/i.test(html)) return html;
  let out = '';
  let href: string | null = null;
  let label = '';
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    const close = open === -1 ? -1 : html.indexOf('>', open);
    const textEnd = close === -1 ? html.length : open;
    const piece = html.slice(at, textEnd);
    if (href === null) out += piece;
    else label += piece;
    if (close === -1) break;
    const tag = html.slice(open + 1, close).trim();
    at = close + 1;
    if (/^a\s/i.test(tag)) {
      href = /href="([^"]*)"/i.exec(tag)?.[1] ?? '';
      label = '';
    } else if (/^\/a$/i.test(tag) && href !== null) {
      out += href ? `[${label}](${href})` : label;
      href = null;
    } else if (/^li\b/i.test(tag)) out += '\n- ';
    else if (BLOCK.test(tag)) out += '\n';
  }
  if (href !== null) out += label;
  return out
    .replace(/&(nbsp|lt|gt|quot|#39|amp);/g, (entity) => ENTITIES[entity] ?? entity)
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The projects of data.json: a list of projects with their tasks (Vikunja 0.21 and later), or
 * of namespaces with their lists (before 0.21, when projects were lists in namespaces).
 */
function projectsOf(document: unknown[]): Json[] {
  const projects: Json[] = [];
  for (const item of document) {
    if (!isObject(item)) continue;
    if (Array.isArray(item.lists)) projects.push(...item.lists.filter(isObject));
    else projects.push(item);
  }
  return projects;
}

/**
 * Vikunja's export (Settings, Export your data: a zip of data.json, filters.json, VERSION and
 * files/ with the attachments), as its own "Vikunja export" migration reads it
 * (pkg/modules/migration/vikunja-file in go-vikunja/vikunja). Only data.json is read
 * (../zip.ts). Each project → a group (its title, its hex_color the nearest swatch), each task
 * → a todo: title, description (HTML made text), done and done_at, due_date (in the caller's
 * zone; a due time unless it is midnight), start_date, repeat_after/repeat_mode, priority (4
 * urgent and 5 do now are Tally's high), labels as tags, its parent task (related_tasks'
 * parenttask) and comments added to the description. Attachments, assignees, reminders, buckets
 * and saved filters have nothing to go to: a task with attachments says so in a warning. A task
 * is known again by its id.
 */
export async function readVikunja(input: string, context: SourceContext): Promise<SourceFile> {
  const document = parseJson(input, "Vikunja's data.json");
  if (!Array.isArray(document)) {
    throw badRequest('This is not a Vikunja export: its data.json must be a list of projects');
  }
  const source = new SourceBuilder();
  const pause = timeSlicer();
  let count = 0;
  for (const [index, project] of projectsOf(document).entries()) {
    const projectWhere = `project ${index + 1}`;
    const color = text(project.hex_color);
    const group = source.declareGroup(
      {
        name: text(project.title),
        color: color === '' ? null : color,
        createdAt: instant(project.created),
      },
      null,
      projectWhere,
    );
    const tasks = Array.isArray(project.tasks) ? project.tasks : [];
    for (const task of tasks as unknown[]) {
      count += 1;
      const where = `task ${count}`;
      await pause();
      if (!isObject(task) || typeof task.id !== 'number') {
        source.skip(null, where, 'The task has no id');
        continue;
      }
      const related = isObject(task.related_tasks) ? task.related_tasks : {};
      const parent = Array.isArray(related.parenttask) ? related.parenttask[0] : undefined;
      source.addTodo(readTask(task, group, where, source, context), {
        id: task.id,
        parentId: isObject(parent) && typeof parent.id === 'number' ? parent.id : null,
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
  const due = instant(task.due_date);
  let dueDate: string | null = null;
  let dueTime: string | null = null;
  if (due !== null) {
    const local = localDateTime(due, context.zone);
    dueDate = local.date;
    dueTime = local.time === '00:00' ? null : local.time;
  }
  let repeat = repeatOf(task);
  if (repeat === 'unsupported') {
    source.warn(
      null,
      where,
      `Its repeat (every ${String(task.repeat_after)} seconds) is not whole days or weeks: imported without it`,
    );
    repeat = null;
  }
  const planning = source.planning(context.checkPlanning, null, where, {
    dueDate,
    dueTime,
    repeat,
  });
  const start = instant(task.start_date);
  const doneAt = instant(task.done_at);
  const completed = task.done === true;
  const comments = Array.isArray(task.comments)
    ? task.comments
        .filter(isObject)
        .map((comment) => htmlToText(text(comment.comment)).trim())
        .filter((comment) => comment !== '')
    : [];
  const description = [htmlToText(text(task.description)).trim(), ...comments]
    .filter((part) => part !== '')
    .join('\n\n');
  const attachments = Array.isArray(task.attachments) ? task.attachments.length : 0;
  if (attachments > 0) {
    source.warn(
      null,
      where,
      `Imported without its ${attachments === 1 ? 'attachment' : `${attachments} attachments`}: Tally keeps no files`,
    );
  }
  const labels = Array.isArray(task.labels)
    ? task.labels.filter(isObject).map((label) => text(label.title))
    : [];
  const created = instant(task.created);
  return {
    line: null,
    where,
    key: String(task.id),
    title: text(task.title),
    description: description === '' ? null : description,
    group,
    completed,
    ...planning,
    startDate: start === null ? null : dateInZone(start, context.zone),
    tags: source.tags(labels, null, where),
    priority: priorityOf(task.priority),
    createdAt: created,
    updatedAt: instant(task.updated) ?? created,
    completions: completed && doneAt !== null ? [{ at: doneAt, dueDate: planning.dueDate }] : [],
  };
}
