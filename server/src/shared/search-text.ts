/**
 * The words search compares (docs/decisions/052-search-and-trash.md): lower case, decomposed
 * (NFKD) with the accents and other combining marks dropped, split into runs of letters and
 * digits. Done here, not by the database, so both dialects see the same words without
 * PostgreSQL extensions (unaccent) that a self-hoster's database user may not be allowed to add.
 */
export function searchWords(text: string): string[] {
  return (
    text
      // Lower case first: some capitals (İ) lower to a letter plus a mark that is then dropped.
      .toLowerCase()
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** What a todo's search column holds: the words of its title, description and tags. */
export const searchText = (
  title: string,
  description: string | null,
  tags: readonly string[] = [],
): string => searchWords([title, description ?? '', ...tags].join(' ')).join(' ');
