import { useLingui } from '@lingui/react/macro';
import { useAccount } from '#web/features/account/api/get-account';
import { useSetPreferences } from '#web/features/account/api/set-preferences';
import { SettingsSection } from '#web/components/SettingsSection';
import { WeekStartField } from '#web/features/calendar/components/WeekStartField';

/** Settings' Calendar view section (/calendar): the account's first day of the week, saved as it is chosen. */
export default function WeekStartSetting() {
  const { t } = useLingui();
  const account = useAccount();
  const save = useSetPreferences();
  return (
    <SettingsSection title={t`Calendar view`}>
      <div className="max-w-xs">
        <WeekStartField
          weekStart={account.data?.weekStart ?? null}
          disabled={!account.data || save.isPending}
          onChange={(weekStart) => save.mutate({ weekStart })}
        />
      </div>
    </SettingsSection>
  );
}
