/**
 * This tab's name in live updates: random per page load, sent with every request as
 * X-Tally-Client and carried back by the live event of each change it made (contract
 * LIVE_CLIENT_HEADER), so the tab can tell its own changes from another's (lib/live-events.ts).
 */
export const TAB_ID = (() => {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
})();
