/// <reference lib="webworker" />
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import './push';

/**
 * Tally's service worker (docs/decisions/059-offline-and-installable.md): it precaches the built
 * app shell (index.html, every JS chunk including the lazy screens, CSS, icons) and answers
 * navigations with the cached index.html, so the app opens offline. It never answers /api
 * requests: the data shown offline comes from the page's own IndexedDB copy, not from here.
 */
declare const self: ServiceWorkerGlobalScope & {
  /** The precache list, written in by vite-plugin-pwa (injectManifest) at build time. */
  __WB_MANIFEST: (PrecacheEntry | string)[];
};

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    // A link to an API address (the calendar feed) opened in a tab must reach the server.
    denylist: [/^\/api(\/|$)/],
  }),
);

// A new deploy takes over at once: the shell's hashed chunks stay precached until the old worker
// is gone, and index.html is always the one matching the worker's precache.
self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
