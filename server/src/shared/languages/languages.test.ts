import { LANGUAGE_TAGS } from '@tally/contract/languages';
import { describe, expect, it } from 'vitest';
import { en } from './en.js';
import { TEXTS, textsFor, textsForPage, type ServerTexts } from './index.js';

/**
 * Every server text in every language (docs/decisions/179-server-texts.md): present, translated
 * (not English left in place), with every plural form the language's rules ask for.
 */

/** Every text of a language, its functions called with sample values, by path. */
function everyText(t: ServerTexts, n = 3): Record<string, string> {
  const date = t.date('2026-12-04');
  const time = t.time('09:30');
  return {
    hello: t.hello('alice'),
    'verifyEmail.subject': t.verifyEmail.subject,
    'verifyEmail.intro': t.verifyEmail.intro('alice@example.com'),
    'verifyEmail.validity': t.verifyEmail.validity,
    'verifyEmail.ignore': t.verifyEmail.ignore,
    'resetPassword.subject': t.resetPassword.subject,
    'resetPassword.intro': t.resetPassword.intro,
    'resetPassword.validity': t.resetPassword.validity,
    'resetPassword.ignore': t.resetPassword.ignore,
    'reminder.title': t.reminder.title('Call Mum'),
    'reminder.due': t.reminder.due(date, time),
    'reminder.test': t.reminder.test,
    ...Object.fromEntries(Object.entries(t.actions).map(([k, v]) => [`actions.${k}`, v])),
    ...Object.fromEntries(
      Object.entries(t.pages).flatMap(([k, v]) =>
        typeof v === 'string'
          ? [[`pages.${k}`, v]]
          : Object.entries(v).map(([k2, v2]) => [`pages.${k}.${k2}`, v2]),
      ),
    ),
    'digest.subject': t.digest.subject(date, n, n),
    'digest.overdue': t.digest.overdue,
    'digest.dueToday': t.digest.dueToday,
    'digest.startingToday': t.digest.startingToday,
    'digest.dueOn': t.digest.dueOn(date),
    'digest.at': t.digest.at(time),
    'digest.nothing': t.digest.nothing,
    'digest.yesterday': t.digest.yesterday(n, n),
    'digest.open': t.digest.open,
    'digest.stop': t.digest.stop,
    'channelOff.subject': t.channelOff.subject('Phone'),
    'channelOff.body': t.channelOff.body('Phone', 'https://tally.example.com/settings'),
    ungroupedCalendar: t.ungroupedCalendar,
  };
}

/** The paths of a texts object's leaves (strings and functions), but for tag and dir. */
function leaves(value: object, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, entry]: [string, unknown]) => {
    const path = `${prefix}${key}`;
    if (['tag', 'dir', 'date', 'time'].includes(path)) return [];
    return typeof entry === 'object' && entry !== null ? leaves(entry, `${path}.`) : [path];
  });
}

/** Counts that reach every plural category of every language (French "many" is a million). */
const COUNTS = [...Array.from({ length: 120 }, (_, i) => i), 1_000_000];

describe('server texts', () => {
  it('has a language for every tag Tally speaks, and samples every English text', () => {
    expect(Object.keys(TEXTS).sort()).toEqual([...LANGUAGE_TAGS].sort());
    expect(Object.keys(everyText(en)).sort()).toEqual(leaves(en).sort());
  });

  describe.each(LANGUAGE_TAGS.filter((tag) => tag !== 'en'))('%s', (tag) => {
    const texts = TEXTS[tag];

    it('has every text, each written in the language', () => {
      expect(texts.tag).toBe(tag);
      expect(leaves(texts).sort()).toEqual(leaves(en).sort());
      const english = everyText(en);
      for (const [path, text] of Object.entries(everyText(texts))) {
        expect(text.trim(), `${tag} ${path}`).not.toBe('');
        expect(text, `${tag} ${path} is the English text`).not.toBe(english[path]);
      }
    });

    it('has the plural form its rules choose for every count', () => {
      const categories = new Set(COUNTS.map((n) => new Intl.PluralRules(tag).select(n)));
      expect([...categories].sort()).toEqual(
        [...new Intl.PluralRules(tag).resolvedOptions().pluralCategories].sort(),
      );
      for (const n of COUNTS) {
        expect(() => texts.digest.yesterday(n, n), `${tag} ${n}`).not.toThrow();
        expect(() => texts.digest.subject('x', n, n), `${tag} ${n}`).not.toThrow();
      }
    });
  });

  it('writes counts with the form each language needs', () => {
    expect(TEXTS.de.digest.yesterday(1, 2)).toBe(
      'Gestern hast du 1 Aufgabe erledigt; deine Serie: 2 Tage.',
    );
    expect(TEXTS.fr.digest.yesterday(2, 0)).toBe('Hier, vous avez terminé 2 tâches.');
    expect(TEXTS.ar.digest.yesterday(0, 0)).toBe('لم تُكمل أمس أي مهمة.');
    expect(TEXTS.ar.digest.yesterday(2, 2)).toBe('أكملت أمس مهمتين؛ سلسلتك يومان.');
    expect(TEXTS.ar.digest.yesterday(5, 11)).toBe('أكملت أمس 5 مهام؛ سلسلتك 11 يومًا.');
    expect(en.digest.yesterday(1, 0)).toBe('Yesterday you completed 1 todo.');
    expect(en.digest.yesterday(1000, 2)).toBe(
      'Yesterday you completed 1000 todos; your streak is 2 days.',
    );
  });

  it('writes dates and times with Intl in the language; English keeps ISO 8601', () => {
    expect(TEXTS.de.reminder.due(TEXTS.de.date('2026-12-04'), TEXTS.de.time('09:30'))).toBe(
      'Fällig am 04.12.2026 um 09:30',
    );
    expect(TEXTS.ja.date('2026-12-04')).toBe('2026/12/04');
    expect(en.reminder.due(en.date('2026-12-04'), en.time('09:30'))).toBe(
      'Due 2026-12-04 at 09:30',
    );
    // A channel's test message has no date: it stays empty.
    expect(TEXTS.de.date('')).toBe('');
  });

  it("falls back to English for an absent or unknown language, and by language for a region's tag", () => {
    expect(textsFor(null).tag).toBe('en');
    expect(textsFor('xx').tag).toBe('en');
    expect(textsFor('not a tag!').tag).toBe('en');
    expect(textsFor('pt-PT').tag).toBe('pt-BR');
    expect(textsFor('de-AT').tag).toBe('de');
    expect(textsFor('zh-cn').tag).toBe('zh-CN');
  });

  it("answers a page in the account's language, else the browser's first Tally speaks", () => {
    expect(textsForPage('ja', 'de-DE,de;q=0.9').tag).toBe('ja');
    expect(textsForPage(null, 'nl-NL, fr;q=0.5, de;q=0.8').tag).toBe('de');
    expect(textsForPage(null, 'nl, *;q=0.1').tag).toBe('en');
    expect(textsForPage(null, undefined).tag).toBe('en');
  });
});
