/** Milliseconds since the epoch. Injected so tests can move time (token expiry, day buckets). */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
