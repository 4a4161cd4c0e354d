import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import type { CsvMappingField, ImportRecord, ImportUndo } from '@tally/contract';
import { FORMAT_CHOICES, newGroupCount, todoCount } from './import-text';

/** The fields a CSV column may become, as the column step names them. */
export const FIELD_LABELS: Record<CsvMappingField, MessageDescriptor> = {
  title: msg`Title`,
  description: msg`Description`,
  group: msg`Group`,
  completed: msg`Done`,
  dueDate: msg`Due date`,
  dueTime: msg`Due time`,
  tags: msg`Tags`,
  priority: msg`Priority`,
  startDate: msg`Start date`,
};

/** What undoing an import did, in a sentence. */
export function undoneText(undo: ImportUndo): string {
  const { trashedTodos: trashed, deletedGroups: groups } = undo;
  const kept = undo.keptTodos.length;
  const moved =
    groups > 0
      ? i18n._(
          msg`Moved ${plural(trashed, { one: '# todo', other: '# todos' })} to the trash and deleted ${plural(groups, { one: '# group', other: '# groups' })}.`,
        )
      : i18n._(msg`Moved ${plural(trashed, { one: '# todo', other: '# todos' })} to the trash.`);
  if (kept === 0) return moved;
  const left = i18n._(
    msg`${plural(kept, { one: '# todo changed since was left alone.', other: '# todos changed since were left alone.' })}`,
  );
  return `${moved} ${left}`;
}

/** An import in the history: "Vikunja export (ZIP), tasks.zip: 12 todos, 2 groups". */
export function importRecordText(record: ImportRecord): string {
  const choice = FORMAT_CHOICES.find(({ value }) => value === record.format);
  const format = choice ? i18n._(choice.label) : record.format;
  const file = record.fileName ? `, ${record.fileName}` : '';
  return `${format}${file}: ${todoCount(record.todos)}, ${newGroupCount(record.groups)}`;
}
