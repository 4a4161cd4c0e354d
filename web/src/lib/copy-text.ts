import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

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

/**
 * The sentences after a copy, whole for each thing: a language's word order and agreement (the
 * codes "are" selected) cannot be built from the thing's name.
 */
const COPY_RESULTS = {
  address: {
    copied: msg`Address copied to the clipboard.`,
    selected: msg`Could not copy: the address is selected, press Ctrl+C (⌘C on a Mac) to copy it.`,
  },
  token: {
    copied: msg`Token copied to the clipboard.`,
    selected: msg`Could not copy: the token is selected, press Ctrl+C (⌘C on a Mac) to copy it.`,
  },
  configuration: {
    copied: msg`Configuration copied to the clipboard.`,
    selected: msg`Could not copy: the configuration is selected, press Ctrl+C (⌘C on a Mac) to copy it.`,
  },
  secretKey: {
    copied: msg`Secret key copied to the clipboard.`,
    selected: msg`Could not copy: the secret key is selected, press Ctrl+C (⌘C on a Mac) to copy it.`,
  },
  recoveryCodes: {
    copied: msg`Recovery codes copied to the clipboard.`,
    selected: msg`Could not copy: the recovery codes are selected, press Ctrl+C (⌘C on a Mac) to copy them.`,
  },
} satisfies Record<string, { copied: MessageDescriptor; selected: MessageDescriptor }>;

/** What the section says after a copy, in the active language: done, or how to copy by hand. */
export function copyResult(copied: boolean, what: keyof typeof COPY_RESULTS): string {
  const sentences = COPY_RESULTS[what];
  return i18n._(copied ? sentences.copied : sentences.selected);
}
