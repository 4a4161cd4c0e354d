import { LIMITS } from '@tally/contract/constants';

/**
 * A new todo from something shared (docs/product.md, Share and bookmarklet): the page or text
 * shared to the installed app (its share target), or the page the bookmarklet was clicked on,
 * arrives as /share?title=&text=&url= and opens the Add Todo form filled with this draft.
 */

export interface ShareDraft {
  title: string;
  description: string;
}

const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

/**
 * The title is what was shared as a title, else the first line of the text, else the address;
 * the rest (the text, the address) becomes the description. Apps differ: Android puts the
 * address in `text` and leaves `url` empty; the address is then not written twice.
 */
export function shareDraftOf(shared: {
  title?: string | null;
  text?: string | null;
  url?: string | null;
}): ShareDraft | null {
  const title = oneLine(shared.title ?? '');
  const text = (shared.text ?? '').trim();
  const url = (shared.url ?? '').trim();
  if (title === '' && text === '' && url === '') return null;
  const [firstLine = '', ...otherLines] = text.split('\n');
  const draftTitle = title || oneLine(firstLine) || url;
  const rest = [
    title ? text : otherLines.join('\n').trim(),
    url !== '' && url !== draftTitle && !text.includes(url) ? url : '',
  ].filter((part) => part !== '');
  return {
    title: draftTitle.slice(0, LIMITS.todoTitleMax),
    description: rest.join('\n\n').slice(0, LIMITS.todoDescriptionMax),
  };
}

/** The draft in /todos's address (`add`, `note`): the share route sends the browser there. */
const DRAFT_PARAMS = { title: 'add', description: 'note' } as const;

export function draftOfSearch(search: string): ShareDraft | null {
  const params = new URLSearchParams(search);
  const title = params.get(DRAFT_PARAMS.title);
  if (!title) return null;
  return { title, description: params.get(DRAFT_PARAMS.description) ?? '' };
}

export function searchOfDraft(draft: ShareDraft): string {
  const params = new URLSearchParams({ [DRAFT_PARAMS.title]: draft.title });
  if (draft.description !== '') params.set(DRAFT_PARAMS.description, draft.description);
  return params.toString();
}
