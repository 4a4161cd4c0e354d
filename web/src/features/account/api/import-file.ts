import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportFormat, ImportReport } from '@tally/contract';
import { api } from '#web/lib/api';
import { reportMutationError } from '#web/lib/mutation-errors';
import { queryKeys } from '#web/lib/query-keys';

const PREVIEW_OPERATION = 'Preview import';
const IMPORT_OPERATION = 'Import';

interface ImportInput {
  file: File;
  format: ImportFormat;
  /** true: the preview (nothing changes); false: the import itself. */
  dryRun: boolean;
}

/**
 * Sends a file to POST /api/import as a form (docs/product.md, Import and export). The preview
 * changes nothing; after an import the todos, groups and statistics are fetched again.
 */
export function useImportFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, format, dryRun }: ImportInput): Promise<ImportReport> =>
      api.transfer.import({
        body: { file, format, dryRun: dryRun ? 'true' : 'false' },
        operation: dryRun ? PREVIEW_OPERATION : IMPORT_OPERATION,
      }),
    onSuccess: (report) => {
      if (report.dryRun) return;
      for (const queryKey of [queryKeys.todos, queryKeys.groups, queryKeys.statistics]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
    onError: (error, { dryRun }) =>
      reportMutationError(error, dryRun ? PREVIEW_OPERATION : IMPORT_OPERATION),
  });
}
