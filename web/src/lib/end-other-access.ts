import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { QueryClient } from '@tanstack/react-query';
import type { EndOtherAccess } from '@tally/contract';
import { queryKeys } from '#web/lib/query-keys';

/** The choice of EndOtherAccessFields in a submitted form. */
export function endOtherAccessOf(data: FormData): EndOtherAccess {
  return {
    endOtherSessions: data.get('endOtherSessions') === 'on',
    endApiTokensAndFeed: data.get('endApiTokensAndFeed') === 'on',
  };
}

/** What the change ended besides, in the words of the password change; empty for nothing. */
export function endedSentence(choice: EndOtherAccess): string {
  if (choice.endOtherSessions && choice.endApiTokensAndFeed) {
    return ` ${i18n._(msg`Every other device was signed out, every API token revoked and the calendar feed turned off.`)}`;
  }
  if (choice.endOtherSessions) return ` ${i18n._(msg`Every other device was signed out.`)}`;
  if (choice.endApiTokensAndFeed) {
    return ` ${i18n._(msg`Every API token was revoked and the calendar feed turned off.`)}`;
  }
  return '';
}

/** Reloads the lists the change emptied (the sessions, the tokens, the feed). */
export function reloadEnded(queryClient: QueryClient, choice: EndOtherAccess): void {
  if (choice.endOtherSessions) {
    void queryClient.invalidateQueries({ queryKey: queryKeys.accountSessions });
  }
  if (choice.endApiTokensAndFeed) {
    void queryClient.invalidateQueries({ queryKey: queryKeys.accountTokens });
    void queryClient.invalidateQueries({ queryKey: queryKeys.calendarFeed });
  }
}
