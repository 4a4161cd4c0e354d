import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type ComponentProps, type ReactNode } from 'react';
import type { Repeat, Weekday } from '@tally/contract';
import { Fieldset, SelectField, TextField } from '#web/components/FormField';
import { daysInMonth } from '@tally/contract/dates';
import { parseDate } from '../lib/dates';
import { formatWeekday } from '#web/lib/date-format';
import {
  nthWeekdayChoice,
  presetOfRepeat,
  REPEAT_PRESETS,
  repeatOfPreset,
  WEEKDAYS,
  weekdayOfDate,
  type RepeatPreset,
} from '../lib/repeat';
import type { Nth } from '#web/lib/repeat-words';

interface RepeatFieldsProps {
  repeat: Repeat | null;
  /** The due date ('' for none): a repeat needs one, and monthly choices follow from it. */
  dueDate: string;
  onChange: (repeat: Repeat | null) => void;
  /** The id of the hint saying why the select is disabled. */
  describedBy?: string;
}

/** A unit's name as "Every N" needs it: "day" after 1, "days" after 3. */
const UNITS: { value: Repeat['unit']; name: (every: number) => string }[] = [
  { value: 'day', name: (every) => plural(every, { one: 'day', other: 'days' }) },
  { value: 'week', name: (every) => plural(every, { one: 'week', other: 'weeks' }) },
  { value: 'month', name: (every) => plural(every, { one: 'month', other: 'months' }) },
  { value: 'year', name: (every) => plural(every, { one: 'year', other: 'years' }) },
];

/** A checkbox or radio with its words beside it. */
function Choice({ children, ...input }: { children: ReactNode } & ComponentProps<'input'>) {
  return (
    <label className="inline-flex min-h-9 cursor-pointer items-center gap-2 text-sm text-slate-800 dark:text-slate-200">
      <input {...input} className="h-4 w-4 shrink-0 accent-blue-700 dark:accent-blue-300" />
      {children}
    </label>
  );
}

/**
 * Repeat: Never, Daily, Weekdays, Weekly, Monthly, Yearly or Custom…; Custom shows every N
 * days / weeks / months / years, the weekdays of a weekly rule, a monthly rule's day or nth
 * weekday, and whether the next date counts from the due date or from completion.
 */
export function RepeatFields({ repeat, dueDate, onChange, describedBy }: RepeatFieldsProps) {
  const [customChosen, setCustomChosen] = useState(false);
  const disabled = dueDate === '';
  const preset: RepeatPreset = customChosen ? 'custom' : presetOfRepeat(repeat, dueDate || null);
  const { t, i18n } = useLingui();

  const choose = (value: RepeatPreset) => {
    if (value === 'custom') {
      setCustomChosen(true);
      onChange(
        repeat ?? {
          every: 1,
          unit: 'week',
          ...(dueDate ? { weekdays: [weekdayOfDate(dueDate)] } : {}),
          from: 'due',
        },
      );
    } else {
      setCustomChosen(false);
      onChange(repeatOfPreset(value));
    }
  };

  return (
    <>
      <SelectField
        label={t`Repeat`}
        value={preset}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(event) => choose(event.target.value as RepeatPreset)}
      >
        {REPEAT_PRESETS.map((option) => (
          <option key={option.value} value={option.value}>
            {i18n._(option.label)}
          </option>
        ))}
      </SelectField>
      {preset === 'custom' && repeat && !disabled && (
        <CustomRepeat repeat={repeat} dueDate={dueDate} onChange={onChange} />
      )}
    </>
  );
}

function CustomRepeat({
  repeat,
  dueDate,
  onChange,
}: {
  repeat: Repeat;
  dueDate: string;
  onChange: (repeat: Repeat) => void;
}) {
  const name = useId();
  const [everyText, setEveryText] = useState(String(repeat.every));
  const base = { every: repeat.every, unit: repeat.unit, from: repeat.from } as const;
  const { t } = useLingui();

  const setUnit = (unit: Repeat['unit']) =>
    onChange(
      unit === 'week' && dueDate
        ? { ...base, unit, weekdays: [weekdayOfDate(dueDate)] }
        : { ...base, unit },
    );

  const toggleDay = (day: Weekday, on: boolean) => {
    const days = new Set(repeat.weekdays ?? []);
    if (on) days.add(day);
    else days.delete(day);
    const weekdays = WEEKDAYS.filter((d) => days.has(d));
    onChange(weekdays.length > 0 ? { ...base, weekdays } : { ...base });
  };

  return (
    <fieldset className="space-y-4 rounded-md border border-slate-300 p-3 sm:p-4 dark:border-slate-600">
      <legend className="px-1 text-sm font-medium text-slate-800 dark:text-slate-200">
        <Trans>Custom repeat</Trans>
      </legend>
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label={t`Every`}
          type="number"
          inputMode="numeric"
          min={1}
          max={365}
          required
          value={everyText}
          onChange={(event) => {
            setEveryText(event.target.value);
            const every = Number(event.target.value);
            if (Number.isInteger(every) && every >= 1 && every <= 365) {
              onChange({ ...repeat, every });
            }
          }}
        />
        <SelectField
          label={t`Unit`}
          value={repeat.unit}
          onChange={(event) => setUnit(event.target.value as Repeat['unit'])}
        >
          {UNITS.map((unit) => (
            <option key={unit.value} value={unit.value}>
              {unit.name(repeat.every)}
            </option>
          ))}
        </SelectField>
      </div>
      {repeat.unit === 'week' && (
        <Fieldset legend={t`On`}>
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {WEEKDAYS.map((day) => (
              <Choice
                key={day}
                type="checkbox"
                aria-label={formatWeekday(day)}
                checked={repeat.weekdays?.includes(day) ?? false}
                onChange={(event) => toggleDay(day, event.target.checked)}
              >
                <span aria-hidden="true">{formatWeekday(day, 'short')}</span>
              </Choice>
            ))}
          </div>
        </Fieldset>
      )}
      {repeat.unit === 'month' && (
        <MonthlyChoice
          repeat={repeat}
          dueDate={dueDate}
          name={`${name}-month`}
          onChange={onChange}
        />
      )}
      <Fieldset legend={t`Next date counted from`}>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          <Choice
            type="radio"
            name={`${name}-from`}
            checked={repeat.from === 'due'}
            onChange={() => onChange({ ...repeat, from: 'due' })}
          >
            <Trans>The due date</Trans>
          </Choice>
          <Choice
            type="radio"
            name={`${name}-from`}
            checked={repeat.from === 'completion'}
            onChange={() => onChange({ ...repeat, from: 'completion' })}
          >
            <Trans>Completion</Trans>
          </Choice>
        </div>
      </Fieldset>
    </fieldset>
  );
}

/** On day N, on the nth weekday, or on the last weekday (the choices the due date offers). */
function MonthlyChoice({
  repeat,
  dueDate,
  name,
  onChange,
}: {
  repeat: Repeat;
  dueDate: string;
  name: string;
  onChange: (repeat: Repeat) => void;
}) {
  const { t } = useLingui();
  const due = parseDate(dueDate);
  if (!due) return null;
  const base = { every: repeat.every, unit: repeat.unit, from: repeat.from } as const;
  const weekday = repeat.nthWeekday?.weekday ?? weekdayOfDate(dueDate);
  const nth = (
    repeat.nthWeekday && repeat.nthWeekday.n !== -1 ? repeat.nthWeekday.n : Math.ceil(due.day / 7)
  ) as Nth;
  const lastWeek = due.day > daysInMonth(due.year, due.month) - 7 || repeat.nthWeekday?.n === -1;
  const day = repeat.monthDay ?? due.day;
  return (
    <Fieldset legend={t`On`}>
      <div className="mt-1 flex flex-col gap-y-1">
        <Choice
          type="radio"
          name={name}
          checked={!repeat.nthWeekday}
          onChange={() => onChange(repeat.monthDay ? { ...base, monthDay: repeat.monthDay } : base)}
        >
          <Trans>Day {day}</Trans>
        </Choice>
        <Choice
          type="radio"
          name={name}
          checked={repeat.nthWeekday !== undefined && repeat.nthWeekday.n !== -1}
          onChange={() => onChange({ ...base, nthWeekday: { n: nth, weekday } })}
        >
          {nthWeekdayChoice(nth, weekday)}
        </Choice>
        {lastWeek && (
          <Choice
            type="radio"
            name={name}
            checked={repeat.nthWeekday?.n === -1}
            onChange={() => onChange({ ...base, nthWeekday: { n: -1, weekday } })}
          >
            {nthWeekdayChoice(-1, weekday)}
          </Choice>
        )}
      </div>
    </Fieldset>
  );
}
