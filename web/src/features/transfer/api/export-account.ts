import { msg } from '@lingui/core/macro';
import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api';
import { exportFileName, saveJsonFile } from '../lib/save-file';

const OPERATION = msg`Export my data failed`;

/**
 * Downloads everything of the account as tally-export-YYYY-MM-DD.json. The call goes through the
 * client (the bearer token cannot go in a link) and the answer is saved from a Blob; answers the
 * file name.
 */
export function useExportAccount() {
  return useMutation({
    mutationFn: async () => {
      const data = await api.account.export({ operation: OPERATION });
      const fileName = exportFileName(data.exportedAt);
      saveJsonFile(data, fileName);
      return fileName;
    },
    meta: { operation: OPERATION },
  });
}
