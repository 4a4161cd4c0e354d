/**
 * The languages Tally speaks (docs/decisions/119-languages.md), for what the server writes
 * (e-mails, notifications, pages: decision 179) and for quick add (decision 180). English is the
 * source language; an account without a language, or with one Tally does not speak, gets it.
 */
export const LANGUAGE_TAGS = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja', 'zh-CN', 'ar'] as const;
export type LanguageTag = (typeof LANGUAGE_TAGS)[number];

/** The language Tally speaks for a requested tag: exact, else by its language (pt-PT → pt-BR). */
export function matchLanguageTag(requested: string | null | undefined): LanguageTag | null {
  if (!requested) return null;
  const exact = LANGUAGE_TAGS.find((tag) => tag.toLowerCase() === requested.toLowerCase());
  if (exact) return exact;
  let base: string;
  try {
    base = new Intl.Locale(requested).language;
  } catch {
    return null;
  }
  return LANGUAGE_TAGS.find((tag) => tag.split('-')[0] === base) ?? null;
}
