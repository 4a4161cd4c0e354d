/**
 * A module loaded at its first use instead of at start: `onFirstUse(() => import('x'))` returns
 * a function that imports it once and hands every later caller the same module. Packages most
 * requests never need (passkeys, two-factor setup, OIDC, CalDAV, import, push) cost several MB of
 * heap each when loaded at start (docs/performance.md, Footprint; docs/decisions/097-modules-on-first-use.md);
 * the production bundle puts each such import in a chunk of its own (scripts/bundle-server.mjs).
 * A failed load is not kept, so the next call tries again.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
