import { type LanguageTag, matchLanguageTag } from '@tally/contract/languages';
import { ar } from './ar.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { ja } from './ja.js';
import { ptBR } from './pt-br.js';
import type { ServerTexts } from './texts.js';
import { zhCN } from './zh-cn.js';

export { directed, type ServerTexts } from './texts.js';

/** Every language's texts: one entry per tag Tally speaks, or the compiler says which is missing. */
export const TEXTS: Readonly<Record<LanguageTag, ServerTexts>> = {
  en,
  de,
  fr,
  es,
  'pt-BR': ptBR,
  ja,
  'zh-CN': zhCN,
  ar,
};

/**
 * The texts for an account's language (users.language, decision 118) or a browser's tag: the
 * language Tally speaks for it (pt-PT → pt-BR), else English.
 */
export function textsFor(language: string | null | undefined): ServerTexts {
  return TEXTS[matchLanguageTag(language) ?? 'en'];
}

/**
 * The texts for a page nobody is signed in to (a signed link's answer): the account's language
 * when the link names an account that has one, else the first of the browser's languages
 * (Accept-Language, highest weight first) Tally speaks, else English.
 */
export function textsForPage(
  accountLanguage: string | null,
  acceptLanguage: string | undefined,
): ServerTexts {
  if (matchLanguageTag(accountLanguage)) return textsFor(accountLanguage);
  const requested = (acceptLanguage ?? '')
    .split(',')
    .map((entry) => {
      const [tag = '', ...params] = entry.trim().split(';');
      const weight = params.find((param) => param.trim().startsWith('q='));
      return { tag: tag.trim(), q: weight ? Number(weight.trim().slice(2)) || 0 : 1 };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q);
  const spoken = requested.find((entry) => matchLanguageTag(entry.tag));
  return textsFor(spoken?.tag);
}
