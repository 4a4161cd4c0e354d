import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import type { ImportUndo } from '@tally/contract';
import { Button } from '#web/components/Button';
import { useImportHistory } from '../api/get-import-history';
import { useUndoImport } from '../api/undo-import';
import { formatInstant } from '#web/lib/format-instant';
import { importRecordText, undoneText } from '../lib/import-history-text';
import { RowList } from './ImportRowList';

/** When an import was made, and undone. */
function ImportedWhen({ createdAt, undoneAt }: { createdAt: string; undoneAt: string | null }) {
  const imported = formatInstant(createdAt);
  if (undoneAt === null) return <Trans>Imported {imported}</Trans>;
  const undone = formatInstant(undoneAt);
  return (
    <Trans>
      Imported {imported}; undone {undone}
    </Trans>
  );
}

/**
 * The import history: each import with its counts, and "Undo this import", which moves its
 * todos to the trash (but those changed since, listed after) and deletes its empty groups.
 */
export default function ImportHistory({ onUndone }: { onUndone: (text: string) => void }) {
  const { t } = useLingui();
  const history = useImportHistory();
  const undo = useUndoImport();
  const [result, setResult] = useState<ImportUndo | null>(null);
  const headingId = useId();
  if (!history.data || history.data.length === 0) return null;
  return (
    <div className="space-y-2">
      <h3 id={headingId} className="text-base font-semibold text-slate-900 dark:text-slate-100">
        <Trans>Import history</Trans>
      </h3>
      <ul
        aria-labelledby={headingId}
        className="divide-y divide-slate-200 text-sm dark:divide-slate-700"
      >
        {history.data.map((record) => (
          <li key={record.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
            <div>
              <p className="font-medium text-slate-900 dark:text-slate-100">
                {importRecordText(record)}
              </p>
              <p className="text-slate-600 dark:text-slate-400">
                <ImportedWhen createdAt={record.createdAt} undoneAt={record.undoneAt} />
              </p>
            </div>
            {record.undoneAt === null ? (
              <Button
                variant="secondary"
                disabled={undo.isPending}
                onClick={() =>
                  undo.mutate(record.id, {
                    onSuccess: (answer) => {
                      setResult(answer);
                      onUndone(undoneText(answer));
                    },
                  })
                }
              >
                {undo.isPending && undo.variables === record.id
                  ? t`Undoing...`
                  : t`Undo this import`}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      {result && (result.keptTodos.length > 0 || result.keptGroups.length > 0) ? (
        <RowList
          heading={t`Left alone`}
          rows={[
            ...result.keptTodos.map((todo) => ({ where: todo.title, text: todo.reason })),
            ...result.keptGroups.map((group) => ({
              where: group.name,
              text: t`A group that holds other todos`,
            })),
          ]}
        />
      ) : null}
    </div>
  );
}
