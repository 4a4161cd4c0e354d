import { searchWords } from '@tally/contract/search-words';

/** What a todo's search column holds: the words of its title, description and tags. */
export const searchText = (
  title: string,
  description: string | null,
  tags: readonly string[] = [],
): string => searchWords([title, description ?? '', ...tags].join(' ')).join(' ');
