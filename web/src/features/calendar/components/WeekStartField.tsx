import { useLingui } from '@lingui/react/macro';
import { activeLocale } from '#web/lib/date-format';
import { SelectField } from '#web/components/FormField';

/** Sunday … Saturday in the app's language, as the account counts them (0 = Sunday). */
const dayNames = () =>
  Array.from({ length: 7 }, (_, day) =>
    new Intl.DateTimeFormat(activeLocale(), { weekday: 'long', timeZone: 'UTC' }).format(
      // 4 January 1970 was a Sunday.
      new Date(Date.UTC(1970, 0, 4 + day)),
    ),
  );

/** "Week starts on": the calendar's first day, or the language's when none is chosen. */
export function WeekStartField({
  weekStart,
  disabled,
  onChange,
}: {
  weekStart: number | null;
  disabled: boolean;
  onChange: (weekStart: number | null) => void;
}) {
  const { t } = useLingui();
  return (
    <SelectField
      label={t`Week starts on`}
      value={weekStart === null ? '' : String(weekStart)}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
    >
      <option value="">{t`As my language does`}</option>
      {dayNames().map((name, day) => (
        <option key={name} value={day}>
          {name}
        </option>
      ))}
    </SelectField>
  );
}
