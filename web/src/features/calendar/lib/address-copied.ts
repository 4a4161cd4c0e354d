import { t } from '@lingui/core/macro';

/** What copying an address said: copied, or how to copy it by hand (lib/copy-text's sentences). */
export const addressCopied = (copied: boolean): string =>
  copied
    ? t`Address copied to the clipboard.`
    : t`Could not copy: the address is selected, press Ctrl+C (⌘C on a Mac) to copy it.`;
