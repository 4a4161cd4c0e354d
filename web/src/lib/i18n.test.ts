import { plural } from '@lingui/core/macro';
import { afterAll, describe, expect, it } from 'vitest';
import { activateLanguage, initialLanguage, type Language, matchLanguage } from './i18n';

/** A message of the offline line (app/layout/OfflineBanner.tsx), as the app writes it. */
const sending = (waiting: number) =>
  plural(waiting, {
    one: 'Sending # change made offline…',
    other: 'Sending # changes made offline…',
  });

const COUNTS = [0, 1, 2, 5, 11, 21] as const;

/** Each language's words for the six counts, with {n} where the count stands. */
const EXPECTED: Record<Exclude<Language, 'en-XA' | 'ar-XB'>, string[]> = {
  en: [
    'Sending {n} changes made offline…',
    'Sending {n} change made offline…',
    ...Array<string>(4).fill('Sending {n} changes made offline…'),
  ],
  de: [
    '{n} offline vorgenommene Änderungen werden gesendet…',
    '{n} offline vorgenommene Änderung wird gesendet…',
    ...Array<string>(4).fill('{n} offline vorgenommene Änderungen werden gesendet…'),
  ],
  // French and Brazilian Portuguese count 0 as one; Spanish does not.
  fr: [
    'Envoi de {n} modification faite hors ligne…',
    'Envoi de {n} modification faite hors ligne…',
    ...Array<string>(4).fill('Envoi de {n} modifications faites hors ligne…'),
  ],
  es: [
    'Enviando {n} cambios hechos sin conexión…',
    'Enviando {n} cambio hecho sin conexión…',
    ...Array<string>(4).fill('Enviando {n} cambios hechos sin conexión…'),
  ],
  'pt-BR': [
    'Enviando {n} alteração feita offline…',
    'Enviando {n} alteração feita offline…',
    ...Array<string>(4).fill('Enviando {n} alterações feitas offline…'),
  ],
  ja: Array<string>(6).fill('オフラインで行った{n}件の変更を送信しています…'),
  'zh-CN': Array<string>(6).fill('正在发送离线时所做的 {n} 项更改…'),
  // Arabic's six forms: zero, one, two, few (3-10), many (11-99), other.
  ar: [
    'لا توجد تغييرات أُجريت دون اتصال لإرسالها.',
    'جارٍ إرسال تغيير واحد أُجري دون اتصال…',
    'جارٍ إرسال تغييرين أُجريا دون اتصال…',
    'جارٍ إرسال {n} تغييرات أُجريت دون اتصال…',
    'جارٍ إرسال {n} تغييرًا أُجري دون اتصال…',
    'جارٍ إرسال {n} تغييرًا أُجري دون اتصال…',
  ],
};

afterAll(() => activateLanguage('en'));

describe('plurals', () => {
  it.each(Object.entries(EXPECTED))(
    'are right in %s for 0, 1, 2, 5, 11 and 21',
    async (tag, words) => {
      await activateLanguage(tag as Language);
      const number = new Intl.NumberFormat(tag);
      expect(COUNTS.map(sending)).toEqual(
        words.map((text, index) => text.replace('{n}', number.format(COUNTS[index] ?? 0))),
      );
    },
  );
});

describe('the language', () => {
  it('marks the document with its tag and direction', async () => {
    await activateLanguage('ar');
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    await activateLanguage('de');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });

  it('follows the choice, else the first of the browser’s languages Tally speaks', () => {
    expect(initialLanguage('fr', ['de-DE'])).toBe('fr');
    expect(initialLanguage(null, ['nl-NL', 'pt-PT', 'en'])).toBe('pt-BR');
    expect(initialLanguage('', ['zh-Hans-CN'])).toBe('zh-CN');
    expect(initialLanguage(null, ['nl', 'sv'])).toBe('en');
    expect(matchLanguage('not a tag!')).toBeNull();
  });

  it('makes the pseudo-language longer and accented, keeping the count', async () => {
    await activateLanguage('en-XA');
    const text = sending(5);
    expect(text).toMatch(/^\[.*5.*\]$/);
    expect(text.length).toBeGreaterThan('Sending 5 changes made offline…'.length * 1.3);
    expect(text).not.toContain('Sending');
  });
});
