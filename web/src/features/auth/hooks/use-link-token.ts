import { useEffect, useState } from 'react';

/** The token of an e-mailed link: `#token=` (links since 2026-11-24) or `?token=` (older mails). */
function tokenInAddress(): string {
  const { hash, search } = window.location;
  return (
    new URLSearchParams(hash.slice(1)).get('token') ??
    new URLSearchParams(search).get('token') ??
    ''
  );
}

/**
 * Reads an e-mailed link's token once and takes it out of the address bar at once, so it stays
 * out of the history, of a bookmark and of the Referer of anything the page loads
 * (docs/decisions/073-secrets-out-of-urls-and-logs.md). The server never sees a fragment; a query, from a mail sent before the
 * links used fragments, is redacted in its log.
 */
export function useLinkToken(): string {
  const [token] = useState(tokenInAddress);
  useEffect(() => {
    const { pathname, hash, search } = window.location;
    if (hash || search) window.history.replaceState(window.history.state, '', pathname);
    // Another link opened in this tab changes only the fragment, which loads nothing: start
    // afresh with its token. (A reload after this page took the token out shows "incomplete".)
    const onHashChange = () => {
      if (tokenInAddress()) window.location.reload();
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);
  return token;
}
