import { MutationCache, onlineManager, QueryClient, type QueryKey } from '@tanstack/react-query';
import { conflictOf, fieldErrorOf, type Operation } from './api-error';
import { reportMutationError } from './mutation-errors';
import { isOffline, subscribeConnection } from './online';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /**
       * The sentence a failure shows when the server gives none ("Create group failed"): a
       * failure is reported once, here, for every mutation that names its operation.
       */
      operation?: Operation;
      /**
       * Fields whose refusal the form shows beside the field (docs/product.md, Errors): such a
       * failure gets no notice besides.
       */
      fieldErrors?: readonly string[];
      /** The screen shows a 412 (changed elsewhere) as a conflict beside the fields: no notice. */
      showsConflicts?: boolean;
      /** Queries that a successful change makes stale (refetched if on screen). */
      invalidates?: readonly QueryKey[];
    };
  }
}

/**
 * Failures surface at once with their message (docs/product.md, Errors) and a Retry, rather than
 * after silent retries; data counts as fresh for 30 s. Without a way to the server (offline, or
 * the server not answering: lib/online.ts), a load waits instead of failing: the screen keeps
 * the data it has (the saved copy), and the load runs again as soon as the server answers.
 * Changes still run, so that the todos' own calls can queue them (lib/outbox.ts) instead of
 * waiting unseen. A mutation declares its cache effects once, in its `meta` (operation,
 * invalidates), instead of repeating them in its callbacks.
 */
export function createQueryClient(): QueryClient {
  // TanStack Query counts itself online until an 'offline' event, which a page loaded without
  // network never gets: its saved data would be refetched at once, and the failure shown instead.
  // It follows the server's answers too, not only the browser's network.
  onlineManager.setOnline(!isOffline());
  onlineManager.setEventListener((setOnline) => subscribeConnection(() => setOnline(!isOffline())));
  const client: QueryClient = new QueryClient({
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        const operation = mutation.meta?.operation;
        const shownBeside =
          mutation.meta?.fieldErrors?.some((field) => fieldErrorOf(error, field)) ||
          (mutation.meta?.showsConflicts === true && conflictOf(error) !== null);
        if (operation && !shownBeside) reportMutationError(error, operation);
      },
      onSuccess: (_data, _variables, _context, mutation) => {
        for (const queryKey of mutation.meta?.invalidates ?? []) {
          void client.invalidateQueries({ queryKey });
        }
      },
    }),
    defaultOptions: {
      queries: {
        // A load that failed for want of the server is paused (TanStack Query does so while it
        // counts itself offline) and goes on when the server answers; other failures show.
        retry: () => isOffline(),
        retryDelay: 0,
        staleTime: 30_000,
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
  return client;
}
