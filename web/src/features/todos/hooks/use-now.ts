import { useEffect, useState } from 'react';

/**
 * The current moment, renewed every minute and whenever the page becomes visible again (a
 * laptop that slept through midnight shows the new day at once): due labels, the overdue mark and
 * the Today and Upcoming views follow the clock.
 */
export function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const renew = () => setNow(new Date());
    const timer = setInterval(renew, 60_000);
    const onVisible = () => {
      if (document.visibilityState === 'visible') renew();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);
  return now;
}
