import { i18n, type Messages } from '@lingui/core';
import { matchLanguageTag } from '@tally/contract/languages';
import { readStorage, STORAGE_KEYS, writeStorage } from './storage';

/**
 * The languages Tally speaks (docs/decisions/119-languages.md), named in their own language so
 * that anyone can find theirs. English is the source; the two pseudo-languages are for
 * development: en-XA accented and longer (clipped or untranslated text shows at a glance), ar-XB
 * right to left.
 */
export const LANGUAGES = [
  { tag: 'en', name: 'English' },
  { tag: 'de', name: 'Deutsch' },
  { tag: 'fr', name: 'Français' },
  { tag: 'es', name: 'Español' },
  { tag: 'pt-BR', name: 'Português (Brasil)' },
  { tag: 'ja', name: '日本語' },
  { tag: 'zh-CN', name: '简体中文' },
  { tag: 'ar', name: 'العربية' },
] as const;
export type Language = (typeof LANGUAGES)[number]['tag'] | 'en-XA' | 'ar-XB';

const RIGHT_TO_LEFT: readonly Language[] = ['ar', 'ar-XB'];

/** Each catalog is its own chunk: only the active language's is downloaded. */
const catalogs: Record<Language, () => Promise<{ messages: Messages }>> = {
  en: () => import('../locales/en.po'),
  de: () => import('../locales/de.po'),
  fr: () => import('../locales/fr.po'),
  es: () => import('../locales/es.po'),
  'pt-BR': () => import('../locales/pt-BR.po'),
  ja: () => import('../locales/ja.po'),
  'zh-CN': () => import('../locales/zh-CN.po'),
  ar: () => import('../locales/ar.po'),
  'en-XA': () => import('../locales/en-XA.po'),
  'ar-XB': () => import('../locales/ar-XB.po'),
};

const KNOWN = Object.keys(catalogs) as Language[];

/**
 * The language Tally speaks for a requested tag: a pseudo-language by its exact tag, else as the
 * server matches it (contract/src/languages.ts: exact, else by its language, pt-PT → pt-BR).
 */
export function matchLanguage(requested: string): Language | null {
  const pseudo = KNOWN.find((tag) => tag.toLowerCase() === requested.toLowerCase());
  return pseudo ?? matchLanguageTag(requested);
}

/** The chosen language (Settings), else the first of the browser's that Tally speaks, else English. */
export function initialLanguage(
  chosen = readStorage(STORAGE_KEYS.language),
  browser: readonly string[] = navigator.languages,
): Language {
  for (const requested of [chosen, ...browser]) {
    const language = requested ? matchLanguage(requested) : null;
    if (language) return language;
  }
  return 'en';
}

const isRightToLeft = (language: Language) => RIGHT_TO_LEFT.includes(language);

/** Loads the language's catalog, makes it the active one, and marks the document with it. */
export async function activateLanguage(language: Language): Promise<void> {
  const { messages } = await catalogs[language]();
  i18n.loadAndActivate({ locale: language, messages });
  document.documentElement.lang = language;
  document.documentElement.dir = isRightToLeft(language) ? 'rtl' : 'ltr';
}

/** The language chosen in Settings, remembered on this device for the next start. */
export async function chooseLanguage(language: Language | null): Promise<void> {
  writeStorage(STORAGE_KEYS.language, language ?? '');
  await activateLanguage(language ?? initialLanguage(null));
}
