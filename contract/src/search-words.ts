/**
 * The words search compares (docs/decisions/052-search-and-trash.md), the same on the server
 * (what a todo's search column holds, and the words of ?q=) and in the browser (the list
 * filtered while the server's answer is on its way): lower case, compatibility decomposition
 * (NFKD: "é" becomes "e" plus a combining accent, "ﬁ" becomes "fi") without the combining marks,
 * then the runs of letters and digits. Imports nothing (the light entry
 * `@tally/contract/search-words`).
 */
export function searchWords(text: string): string[] {
  return (
    text
      // Lower case first: some capitals (İ) lower to a letter plus a mark that is then dropped.
      .toLowerCase()
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      // Again after the decomposition, which may yield capitals ("№" becomes "No").
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}
