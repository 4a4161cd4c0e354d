import { formatMoment } from '#web/lib/date-format';

/**
 * An ISO 8601 instant in the app's one date and time format (lib/date-format): the browser's
 * locale and zone, "Today" or "Yesterday" when near.
 */
export const formatInstant = (instant: string): string => formatMoment(instant);
