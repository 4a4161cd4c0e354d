import { useEffect, useState } from 'react';

/** Milliseconds from `now` to the start of the next minute (midnight is one of them). */
const untilNextMinute = (now: Date) =>
  60_000 - (now.getSeconds() * 1000 + now.getMilliseconds()) + 5;

/**
 * The current moment, renewed at the start of every minute and whenever the page becomes
 * visible again (a laptop that slept through midnight shows the new day at once): due labels,
 * the overdue mark and the Today and Upcoming views follow the clock. A timer set for the next
 * minute (not every 60 s from whenever the page opened) turns a todo due at 15:00 overdue at
 * 15:00 and the day over at midnight itself.
 */
export function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setTimeout(() => setNow(new Date()), untilNextMinute(now));
    return () => clearTimeout(timer);
  }, [now]);
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') setNow(new Date());
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, []);
  return now;
}
