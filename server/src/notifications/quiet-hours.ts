import { TZDate } from '@date-fns/tz';

/** "HH:mm" as minutes after midnight, and back. */
export const minutesOf = (time: string) => {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return hours * 60 + minutes;
};
export const clockTimeOf = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * When the quiet hours `now` falls in end, or null outside them. Start and end are minutes after
 * midnight in `zone`; an end before the start is the next morning (22:00-07:00). The end is
 * found on the user's calendar, so a night across a clock change still ends at 07:00 local.
 */
export function quietHoursEnd(
  start: number,
  end: number,
  zone: string,
  now: number,
): number | null {
  if (start === end) return null;
  const local = new TZDate(now, zone);
  const minute = local.getHours() * 60 + local.getMinutes();
  const inside = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  if (!inside) return null;
  const days = minute < end ? 0 : 1;
  return new TZDate(
    local.getFullYear(),
    local.getMonth(),
    local.getDate() + days,
    Math.floor(end / 60),
    end % 60,
    zone,
  ).getTime();
}
