import { Trans, useLingui } from '@lingui/react/macro';
import { addressCopied } from '../lib/address-copied';
import { useState } from 'react';
import { Link } from 'wouter';
import { CopyField } from '#web/components/CopyField';
import { Hint, SettingsSection } from '#web/components/SettingsSection';

const linkClass = 'font-medium text-blue-700 underline underline-offset-2 dark:text-blue-300';

/**
 * How to sync with phone and desktop apps over CalDAV (docs/product.md, Calendar apps): the
 * address to paste, the username, and where the app password comes from (an API token).
 */
export function CalendarAppsSection({ email }: { email: string }) {
  const [status, setStatus] = useState<string | null>(null);
  const serverUrl = `${window.location.origin}/`;
  const { t } = useLingui();
  return (
    <SettingsSection title={t`Calendar apps (CalDAV)`} status={status}>
      <Hint>
        <Trans>
          Tasks.org and jtx Board (with DAVx⁵), Apple Reminders, Thunderbird and other CalDAV apps
          can show and change your todos: each group is a calendar, plus one named Todos for todos
          without a group. Add a CalDAV account in the app with this server address, your e-mail{' '}
          <strong className="font-medium text-slate-900 dark:text-slate-100">{email}</strong> as the
          username, and an app password:{' '}
          <Link href="/settings/api-tokens" className={linkClass}>
            make an API token
          </Link>{' '}
          with Read and write (Read only lets the app look but not change anything). Never use your
          account password there.
        </Trans>
      </Hint>
      <CopyField
        label={t`Server address`}
        value={serverUrl}
        copyLabel={t`Copy address`}
        onCopy={(copied) => setStatus(addressCopied(copied))}
      />
    </SettingsSection>
  );
}
