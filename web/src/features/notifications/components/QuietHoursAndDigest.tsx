import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { NotificationSettings } from '@tally/contract';
import { Button } from '#web/components/Button';
import { ErrorBanner } from '#web/components/ErrorBanner';
import { Form, FormActions } from '#web/components/Form';
import { TextField } from '#web/components/FormField';
import { LoadingText } from '#web/components/LoadingText';
import { errorMessage } from '#web/lib/api-client';
import {
  LOAD_NOTIFICATION_SETTINGS_OPERATION,
  useNotificationSettings,
} from '../api/get-notification-settings';
import { useUpdateNotificationSettings } from '../api/update-notification-settings';

const hintClass = 'text-sm text-slate-600 dark:text-slate-400';

/**
 * Quiet hours (no channel sends a reminder inside them; the open app still shows it) and the
 * daily digest e-mail's time, both in the account's zone. An empty time turns either off.
 */
export function QuietHoursAndDigest({ onSaved }: { onSaved: (message: string) => void }) {
  const { t } = useLingui();
  const settings = useNotificationSettings();
  if (settings.isPending) return <LoadingText>{t`Loading quiet hours...`}</LoadingText>;
  if (settings.isError) {
    return (
      <ErrorBanner
        message={errorMessage(settings.error, LOAD_NOTIFICATION_SETTINGS_OPERATION)}
        onRetry={() => void settings.refetch()}
      />
    );
  }
  return <SettingsForm settings={settings.data} onSaved={onSaved} />;
}

function SettingsForm({
  settings,
  onSaved,
}: {
  settings: NotificationSettings;
  onSaved: (message: string) => void;
}) {
  const { t } = useLingui();
  const update = useUpdateNotificationSettings();
  const message = update.isError ? errorMessage(update.error, msg`Save failed`) : null;
  const { timeZone } = settings;

  const submit = (data: FormData) => {
    const time = (name: string) => {
      const value = data.get(name);
      return typeof value === 'string' && value !== '' ? value : null;
    };
    const start = time('quietStart');
    const end = time('quietEnd');
    update.mutate(
      {
        quietHours: start !== null && end !== null ? { start, end } : null,
        digestTime: time('digestTime'),
      },
      { onSuccess: () => onSaved(t`Quiet hours and digest saved.`) },
    );
  };

  return (
    <Form label={t`Quiet hours and daily digest`} onSubmit={submit}>
      <h3 className="text-base font-semibold text-slate-900 dark:text-slate-100">
        <Trans>Quiet hours and daily digest</Trans>
      </h3>
      <p className={hintClass}>
        <Trans>
          Times are in {timeZone}. Inside quiet hours no channel sends a reminder (this app still
          shows it); what falls due goes out when they end. Leave a time empty to turn it off.
        </Trans>
      </p>
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField
          label={t`Quiet from`}
          name="quietStart"
          type="time"
          defaultValue={settings.quietHours?.start ?? ''}
        />
        <TextField
          label={t`Quiet until`}
          name="quietEnd"
          type="time"
          defaultValue={settings.quietHours?.end ?? ''}
        />
        <TextField
          label={t`Daily digest e-mail at`}
          name="digestTime"
          type="time"
          defaultValue={settings.digestTime ?? ''}
        />
      </div>
      {message && <ErrorBanner message={message} />}
      <FormActions>
        <Button type="submit" disabled={update.isPending}>
          <Trans>Save</Trans>
        </Button>
      </FormActions>
    </Form>
  );
}
