import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { OidcFailure } from '@tally/contract/constants';

/**
 * What the page says for each `oidc_error` code of contract OIDC_FAILURES (the API's English
 * words), in the active language, with the provider's name where it goes.
 */
const OIDC_FAILURE_MESSAGES = {
  provider_error: (provider) =>
    msg`The sign-in was cancelled or refused at ${provider} - please try again`,
  flow_expired: (provider) =>
    msg`This sign-in expired or was already used - please start again with Continue with ${provider}`,
  state_mismatch: () => msg`This sign-in was not started in this browser - please start again`,
  invalid_response: (provider) =>
    msg`The answer from ${provider} could not be verified - please try again`,
  email_exists: (provider) =>
    msg`An account with this e-mail address already exists - sign in with your password and link ${provider} in Settings`,
  registration_closed: (provider) =>
    msg`There is no Tally account for this ${provider} account, and sign-up is closed - ask the operator for one`,
  no_email: (provider) =>
    msg`${provider} did not share a usable e-mail address, which a new account needs`,
  email_unverified: (provider) =>
    msg`${provider} has not verified your e-mail address, which a new account needs - verify it there and try again`,
  linked_elsewhere: (provider) =>
    msg`That ${provider} account is already linked to another Tally account`,
  already_linked: (provider) =>
    msg`Your account is already linked to another ${provider} account - unlink it first`,
  wrong_account: (provider) =>
    msg`That is not the ${provider} account linked to your Tally account`,
  session_ended: () => msg`Your session has ended - please sign in again`,
  account_disabled: () =>
    msg`This Tally account is disabled - ask the operator of this Tally to enable it`,
  unavailable: (provider) => msg`${provider} could not be reached - please try again later`,
} satisfies Record<OidcFailure, (provider: string) => MessageDescriptor>;

const isOidcFailure = (code: string): code is OidcFailure => code in OIDC_FAILURE_MESSAGES;

/**
 * The sentence of an `oidc_error` code for the provider named `provider` (the provider's own
 * name, else "the provider" in the language), in the active language; null for no code.
 */
export function oidcFailureSentence(code: string | null, provider: string | null): string | null {
  if (code === null) return null;
  const name = provider ?? i18n._(msg`the provider`);
  return i18n._(
    isOidcFailure(code)
      ? OIDC_FAILURE_MESSAGES[code](name)
      : msg`The sign-in with ${name} failed - please try again`,
  );
}
