/**
 * Registers the service worker (src/sw/sw.ts, built to /sw.js) in production builds, after the
 * page has loaded so it does not compete with the first screen's requests. A file, not an
 * inline script, so the Content-Security-Policy stays without 'unsafe-inline'.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    // No worker only means no offline copy; the app itself works the same.
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  });
}
