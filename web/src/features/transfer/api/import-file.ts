import { msg } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CsvMappingField, ImportFormat, ImportReport } from '@tally/contract';
import { api } from '#web/lib/api';
import { fieldErrorOf, refusalOfField } from '#web/lib/api-client';
import { reportMutationError } from '#web/lib/mutation-errors';
import { queryKeys } from '#web/lib/query-keys';

const PREVIEW_OPERATION = msg`Preview import failed`;
const IMPORT_OPERATION = msg`Import failed`;

interface ImportInput {
  file: File;
  format: ImportFormat;
  /** true: the preview (nothing changes); false: the import itself. */
  dryRun: boolean;
  /** Any CSV: the column (by header) each field comes from; none: the server's guess. */
  mapping?: Partial<Record<CsvMappingField, string>>;
}

/**
 * Sends a file to POST /api/import as a form (docs/product.md, Import and export). The preview
 * changes nothing; after an import the todos, groups and statistics are fetched again.
 */
export function useImportFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, format, dryRun, mapping }: ImportInput): Promise<ImportReport> =>
      api.transfer
        .import({
          body: {
            file,
            format,
            dryRun: dryRun ? 'true' : 'false',
            ...(mapping ? { mapping: JSON.stringify(mapping) } : {}),
          },
          operation: dryRun ? PREVIEW_OPERATION : IMPORT_OPERATION,
        })
        // A file the server cannot read or take (empty, not a Tally export, too large) is
        // said beside the file field.
        .catch(refusalOfField('file', [400, 413])),
    onSuccess: (report) => {
      if (report.dryRun) return;
      for (const queryKey of [
        queryKeys.todos,
        queryKeys.groups,
        queryKeys.statistics,
        queryKeys.accountImports,
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
    // Its operation depends on the call, so it is reported here rather than by its meta.
    onError: (error, { dryRun }) => {
      if (!fieldErrorOf(error, 'file')) {
        reportMutationError(error, dryRun ? PREVIEW_OPERATION : IMPORT_OPERATION);
      }
    },
  });
}
