import { Trans } from '@lingui/react/macro';

const boxClass = 'mt-0.5 h-4 w-4 shrink-0 accent-blue-700 dark:accent-blue-300';
const labelClass =
  'flex cursor-pointer items-start gap-2 text-sm text-slate-800 dark:text-slate-200';

/**
 * The offer that comes with a change of a way to sign in (two-factor codes, a passkey): end the
 * other sessions, and the API tokens with the calendar feed, as a password change does. Read by
 * lib/end-other-access.ts (endOtherAccessOf).
 */
export function EndOtherAccessFields() {
  return (
    <fieldset className="space-y-2">
      <legend className="sr-only">
        <Trans>Also end</Trans>
      </legend>
      <label className={labelClass}>
        <input type="checkbox" name="endOtherSessions" className={boxClass} />
        <span>
          <Trans>Also sign out every other device signed in to your account</Trans>
        </span>
      </label>
      <label className={labelClass}>
        <input type="checkbox" name="endApiTokensAndFeed" className={boxClass} />
        <span>
          <Trans>
            Also revoke every API token and turn the calendar feed off (for when someone else may
            have them)
          </Trans>
        </span>
      </label>
    </fieldset>
  );
}
