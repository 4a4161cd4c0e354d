import { SelectField } from '#web/components/FormField';

/** Sunday … Saturday in the browser's language, as the account counts them (0 = Sunday). */
const DAY_NAMES = Array.from({ length: 7 }, (_, day) =>
  new Intl.DateTimeFormat(undefined, { weekday: 'long', timeZone: 'UTC' }).format(
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
  return (
    <SelectField
      label="Week starts on"
      value={weekStart === null ? '' : String(weekStart)}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
    >
      <option value="">As my language does</option>
      {DAY_NAMES.map((name, day) => (
        <option key={name} value={day}>
          {name}
        </option>
      ))}
    </SelectField>
  );
}
