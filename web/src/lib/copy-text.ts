/**
 * Copies text to the clipboard. False when the browser refuses: the Clipboard API exists only
 * on secure pages (https or localhost), and a self-hosted Tally may be served over plain http.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** What the section says after a copy: done, or how to copy the selected text by hand. */
export function copyResult(copied: boolean, what: string): string {
  return copied
    ? `${what} copied to the clipboard.`
    : `Could not copy: the ${what.toLowerCase()} is selected, press Ctrl+C (⌘C on a Mac) to copy it.`;
}
