import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { saveTextFile } from '#web/lib/save-file';

const OPERATION = msg`Export todos as CSV failed`;

/**
 * Downloads the todos as tally-todos-YYYY-MM-DD.csv (the browser's day), through the client like
 * the JSON export; answers the file name.
 */
export function useExportTodosCsv() {
  return useMutation({
    mutationFn: async () => {
      const csv = await api.transfer.exportCsv({ operation: OPERATION });
      const day = new Date().toLocaleDateString('sv-SE');
      const fileName = `tally-todos-${day}.csv`;
      // response.text() drops the byte-order mark the server sends; spreadsheets need it for UTF-8.
      saveTextFile(`\uFEFF${csv.replace(/^\uFEFF/, '')}`, fileName, 'text/csv;charset=utf-8');
      return fileName;
    },
    meta: { operation: OPERATION },
  });
}
