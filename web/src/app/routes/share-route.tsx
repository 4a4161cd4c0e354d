import { Redirect, useSearch } from 'wouter';
import { searchOfDraft, shareDraftOf } from '#web/features/todos/lib/share-draft';

/**
 * /share: the installed app's share target and the bookmarklet's page (docs/product.md, Share
 * and bookmarklet). What was shared opens the Add Todo form of /todos, filled in.
 */
export default function ShareRoute() {
  const params = new URLSearchParams(useSearch());
  const draft = shareDraftOf({
    title: params.get('title'),
    text: params.get('text'),
    url: params.get('url'),
  });
  return <Redirect to={draft ? `/todos?${searchOfDraft(draft)}` : '/todos'} replace />;
}
