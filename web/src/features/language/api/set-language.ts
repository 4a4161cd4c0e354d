import { useMutation } from '@tanstack/react-query';
import { msg } from '@lingui/core/macro';
import { api } from '#web/lib/api';
import { chooseLanguage, type Language } from '#web/lib/i18n';
import { queryKeys } from '#web/lib/query-keys';

export const SET_LANGUAGE_OPERATION = msg`Change language failed`;

/**
 * Speaks the chosen language at once on this device, and keeps the choice on the account so
 * that other devices and e-mails follow it; null follows the browser's languages.
 */
export function useSetLanguage() {
  return useMutation({
    mutationFn: async (language: Language | null) => {
      await chooseLanguage(language);
      return api.account.setPreferences({ body: { language }, operation: SET_LANGUAGE_OPERATION });
    },
    meta: { operation: SET_LANGUAGE_OPERATION, invalidates: [queryKeys.account] },
  });
}
