import type { CsvMappingField, ImportRecord, ImportUndo } from '@tally/contract';
import { FORMAT_CHOICES, plural } from './import-text';

/** The fields a CSV column may become, as the column step names them. */
export const FIELD_LABELS: Record<CsvMappingField, string> = {
  title: 'Title',
  description: 'Description',
  group: 'Group',
  completed: 'Done',
  dueDate: 'Due date',
  dueTime: 'Due time',
  tags: 'Tags',
  priority: 'Priority',
  startDate: 'Start date',
};

/** What undoing an import did, in a sentence. */
export function undoneText(undo: ImportUndo): string {
  const groups =
    undo.deletedGroups > 0 ? ` and deleted ${plural(undo.deletedGroups, 'group')}` : '';
  const kept =
    undo.keptTodos.length > 0
      ? ` ${plural(undo.keptTodos.length, 'todo')} changed since ${undo.keptTodos.length === 1 ? 'was' : 'were'} left alone.`
      : '';
  return `Moved ${plural(undo.trashedTodos, 'todo')} to the trash${groups}.${kept}`;
}

/** An import in the history: "Vikunja export (ZIP), tasks.zip: 12 todos, 2 groups". */
export function importRecordText(record: ImportRecord): string {
  const format =
    FORMAT_CHOICES.find((choice) => choice.value === record.format)?.label ?? record.format;
  const file = record.fileName ? `, ${record.fileName}` : '';
  return `${format}${file}: ${plural(record.todos, 'todo')}, ${plural(record.groups, 'new group')}`;
}
