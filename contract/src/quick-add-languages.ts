import type { Chrono } from 'chrono-node';
import * as ar from 'chrono-node/ar';
import * as de from 'chrono-node/de';
import * as es from 'chrono-node/es';
import * as fr from 'chrono-node/fr';
import * as ja from 'chrono-node/ja';
import * as pt from 'chrono-node/pt';
import * as zh from 'chrono-node/zh';
import { WEEKDAYS, type Weekday } from './dates.js';
import { type LanguageTag, matchLanguageTag } from './languages.js';
import type { Repeat } from './todos.js';

// Regular-expression literals spell their non-ASCII letters as \uXXXX (with the letters in a
// comment): the server's bundle stays ASCII (scripts/bundle-server.mjs), and esbuild escapes the
// letters of strings but not those of regular expressions.

/**
 * Quick add in the languages Tally speaks besides English (docs/decisions/180-quick-add-in-the-language.md):
 * chrono's parser of the language for dates and times, the language's own repeat phrases
 * ("jeden Montag", "tous les jours", "毎日"), how it writes a time ("9h30", "15時"), and the
 * ordinary words its parser would take for a date ("Guten Morgen", "por la mañana"). English is
 * always read as well (quick-add-text.ts).
 */

interface LocalRepeat {
  pattern: RegExp;
  read: (match: RegExpExecArray) => Repeat | null;
}

export interface QuickAddLanguage {
  parser: Pick<Chrono, 'parse'>;
  repeats: readonly LocalRepeat[];
  /** A clock time as the language writes it, with the word before it that goes with it. */
  time: RegExp;
  /** A word before a date that goes with it ("bis", "le"), ending where the date starts. */
  lead?: RegExp;
  /**
   * The words that make a date the start date ("ab morgen", "à partir de demain"): before it,
   * ending where the date starts, or after it, from where it ends ("明日から"). They leave the
   * title with the date.
   */
  startBefore?: RegExp;
  startAfter?: RegExp;
  /** Whether a phrase the parser read as a date is an ordinary word here. */
  ordinary: (words: string, before: string, after: string) => boolean;
}

const every = (unit: Repeat['unit'], n = 1): Repeat | null =>
  n >= 1 && n <= 365 ? { every: n, unit, from: 'due' } : null;
const onDays = (days: readonly (Weekday | undefined)[]): Repeat | null =>
  days.length === 0 || days.some((day) => day === undefined)
    ? null
    : {
        every: 1,
        unit: 'week',
        weekdays: WEEKDAYS.filter((day) => days.includes(day)),
        from: 'due',
      };
const WORKDAYS = onDays(['mon', 'tue', 'wed', 'thu', 'fri']);
const WEEKEND = onDays(['sat', 'sun']);

/** Letters and digits: what a phrase must not be glued to in a language written with spaces. */
const START = '(?<![\\p{L}\\p{N}])';
const END = '(?![\\p{L}\\p{N}#-])';

/** A repeat pattern from its source: case-insensitive, Unicode, bounded by spaces if `spaced`. */
const phrase = (source: string, spaced = true) =>
  new RegExp(spaced ? `${START}(?:${source})${END}` : `(?:${source})`, 'giu');

/** The weekday words of a language as an alternation, longest first, and their lookup. */
function dayWords(words: Record<string, Weekday>) {
  const keys = Object.keys(words).sort((a, b) => b.length - a.length);
  const lookup = (word: string) => words[word.toLowerCase()];
  return { DAY: `(?:${keys.join('|')})`, lookup };
}

/** "jeden Montag und Donnerstag": the weekday words of a list, split by the language's "and". */
const daysIn = (list: string, separators: RegExp, lookup: (word: string) => Weekday | undefined) =>
  list
    .split(separators)
    .map((word) => word.trim())
    .filter(Boolean)
    .map(lookup);

/**
 * A clock time: `prep` the words before it that go with it ("um", "à", "a las"), `mark` the
 * hour's word ("Uhr", "h", "時"), `suffix` a word after the minutes ("Uhr"). Written with minutes
 * or with the hour's word, never a bare number.
 */
function clock(prep: string, mark: string, spaced = true, suffix = ''): RegExp {
  const before = prep ? `(?:(?:${prep})\\s*)?` : '';
  const hourWord = mark ? `|\\s*(?:${mark})(?:\\s*\\d{1,2}\\s*分?)?` : '';
  const after = suffix ? `(?:\\s*(?:${suffix}))?` : '';
  const end = spaced ? '(?![\\p{L}\\p{N}:])' : '(?![\\p{N}:])';
  return new RegExp(
    `${spaced ? START : ''}${before}\\d{1,2}(?:[:：]\\d{2}${hourWord})${after}${end}`,
    'giu',
  );
}

/**
 * French, Spanish and Portuguese write weekdays, months and "tomorrow" in lower case: one
 * capitalised inside a title is a name ("Lire Vendredi ou la Vie sauvage").
 */
const capitalisedInside = (words: string, before: string) =>
  /^\p{Lu}/u.test(words) && before.trim() !== '';

// ---------------------------------------------------------------------------------------------

const DE = dayWords({
  montag: 'mon',
  dienstag: 'tue',
  mittwoch: 'wed',
  donnerstag: 'thu',
  freitag: 'fri',
  samstag: 'sat',
  sonnabend: 'sat',
  sonntag: 'sun',
});
const deLookup = (word: string) => DE.lookup(word.replace(/s$/i, ''));
const german: QuickAddLanguage = {
  parser: de.casual,
  repeats: [
    { pattern: phrase('jeden\\s+(?:Werktag|Wochentag)|werktags'), read: () => WORKDAYS },
    { pattern: phrase('jedes\\s+Wochenende'), read: () => WEEKEND },
    {
      pattern: phrase(`jeden\\s+(${DE.DAY}(?:\\s*(?:,|und)\\s*${DE.DAY})*)`),
      read: (m) => onDays(daysIn(m[1] ?? '', /,|\bund\b/i, deLookup)),
    },
    {
      // montags, montags und donnerstags
      pattern: phrase(`(${DE.DAY}s(?:\\s*(?:,|und)\\s*${DE.DAY}s)*)`),
      read: (m) => onDays(daysIn(m[1] ?? '', /,|\bund\b/i, deLookup)),
    },
    {
      pattern: phrase('alle\\s+(\\d{1,3})\\s+(Tage|Wochen|Monate|Jahre)'),
      read: (m) => every(DE_UNITS[(m[2] ?? '').toLowerCase()] ?? 'day', Number(m[1])),
    },
    {
      pattern: phrase('alle\\s+zwei\\s+(Tage|Wochen|Monate|Jahre)'),
      read: (m) => every(DE_UNITS[(m[1] ?? '').toLowerCase()] ?? 'day', 2),
    },
    { pattern: phrase('täglich|jeden\\s+Tag'), read: () => every('day') },
    { pattern: phrase('wöchentlich|jede\\s+Woche'), read: () => every('week') },
    { pattern: phrase('monatlich|jeden\\s+Monat'), read: () => every('month') },
    { pattern: phrase('jährlich|jedes\\s+Jahr'), read: () => every('year') },
  ],
  time: clock('um', 'Uhr', true, 'Uhr'),
  lead: /(?:^|\s)(?:bis|am)\s+$/i,
  startBefore: /(?:^|\s)ab(?:\s+(?:dem|den))?\s+$/i,
  // "Guten Morgen": the noun (capitalised inside a title) is the morning, not tomorrow.
  ordinary: (words, before) => words === 'Morgen' && before.trim() !== '',
};
const DE_UNITS: Record<string, Repeat['unit']> = {
  tage: 'day',
  wochen: 'week',
  monate: 'month',
  jahre: 'year',
};

const FR = dayWords({
  lundi: 'mon',
  mardi: 'tue',
  mercredi: 'wed',
  jeudi: 'thu',
  vendredi: 'fri',
  samedi: 'sat',
  dimanche: 'sun',
});
const frLookup = (word: string) => FR.lookup(word.replace(/s$/i, ''));
const FR_UNITS: Record<string, Repeat['unit']> = {
  jours: 'day',
  semaines: 'week',
  mois: 'month',
  ans: 'year',
  années: 'year',
};
const french: QuickAddLanguage = {
  parser: fr.casual,
  repeats: [
    {
      pattern: phrase('(?:tous\\s+les|chaque)\\s+jours?\\s+ouvr(?:é|able)s?'),
      read: () => WORKDAYS,
    },
    { pattern: phrase('chaque\\s+week-end|tous\\s+les\\s+week-ends'), read: () => WEEKEND },
    {
      pattern: phrase(`(?:chaque|tous\\s+les)\\s+(${FR.DAY}s?(?:\\s*(?:,|et)\\s*${FR.DAY}s?)*)`),
      read: (m) => onDays(daysIn(m[1] ?? '', /,|\bet\b/i, frLookup)),
    },
    {
      pattern: phrase('(?:tous|toutes)\\s+les\\s+(\\d{1,3})\\s+(jours|semaines|mois|ans|années)'),
      read: (m) => every(FR_UNITS[(m[2] ?? '').toLowerCase()] ?? 'day', Number(m[1])),
    },
    {
      pattern: phrase('tous\\s+les\\s+jours|chaque\\s+jour|quotidiennement'),
      read: () => every('day'),
    },
    { pattern: phrase('chaque\\s+semaine|toutes\\s+les\\s+semaines'), read: () => every('week') },
    { pattern: phrase('chaque\\s+mois|tous\\s+les\\s+mois'), read: () => every('month') },
    {
      pattern: phrase('chaque\\s+année|chaque\\s+an|tous\\s+les\\s+ans'),
      read: () => every('year'),
    },
  ],
  time: clock('à', 'h'),
  lead: /(?:^|\s)(?:le|pour le|avant le|d\u2019ici le|d'ici le)\s+$/i,
  // à partir de, à partir du, dès, dès le
  startBefore:
    /(?:^|\s)(?:(?:\u00e0|a)\s+partir\s+(?:du\s+|de\s+|d['\u2019]\s*)|d\u00e8s\s+(?:le\s+)?)$/i,
  ordinary: (words, before) => capitalisedInside(words, before),
};

const ES = dayWords({
  lunes: 'mon',
  martes: 'tue',
  miércoles: 'wed',
  miercoles: 'wed',
  jueves: 'thu',
  viernes: 'fri',
  sábado: 'sat',
  sabado: 'sat',
  domingo: 'sun',
});
const esLookup = (word: string) =>
  ES.lookup(word.replace(/^(?:el|los)\s+/i, '')) ??
  ES.lookup(word.replace(/^(?:el|los)\s+/i, '').replace(/s$/i, ''));
const ES_UNITS: Record<string, Repeat['unit']> = {
  días: 'day',
  dias: 'day',
  semanas: 'week',
  meses: 'month',
  años: 'year',
};
const spanish: QuickAddLanguage = {
  parser: es.casual,
  repeats: [
    {
      pattern: phrase(
        '(?:cada|todos\\s+los)\\s+días?\\s+(?:laborables?|hábiles?)|de\\s+lunes\\s+a\\s+viernes',
      ),
      read: () => WORKDAYS,
    },
    { pattern: phrase('(?:cada|todos\\s+los)\\s+fines?\\s+de\\s+semana'), read: () => WEEKEND },
    {
      pattern: phrase(
        `(?:cada|todos\\s+los)\\s+(${ES.DAY}s?(?:\\s*(?:,|y)\\s*(?:el\\s+|los\\s+)?${ES.DAY}s?)*)`,
      ),
      read: (m) => onDays(daysIn(m[1] ?? '', /,|\by\b/i, esLookup)),
    },
    {
      pattern: phrase('cada\\s+(\\d{1,3})\\s+(días|dias|semanas|meses|años)'),
      read: (m) => every(ES_UNITS[(m[2] ?? '').toLowerCase()] ?? 'day', Number(m[1])),
    },
    {
      pattern: phrase('todos\\s+los\\s+días|cada\\s+día|a\\s+diario|diariamente'),
      read: () => every('day'),
    },
    {
      pattern: phrase('cada\\s+semana|todas\\s+las\\s+semanas|semanalmente'),
      read: () => every('week'),
    },
    {
      pattern: phrase('cada\\s+mes|todos\\s+los\\s+meses|mensualmente'),
      read: () => every('month'),
    },
    { pattern: phrase('cada\\s+año|todos\\s+los\\s+años|anualmente'), read: () => every('year') },
  ],
  time: clock('a\\s+las|a\\s+la', 'h'),
  lead: /(?:^|\s)(?:el|para el|antes del|hasta el)\s+$/i,
  startBefore: /(?:^|\s)(?:a\s+partir\s+(?:del|de\s+el|de)|desde(?:\s+el)?)\s+$/i,
  // "por la mañana", "esta mañana": the morning, not tomorrow.
  ordinary: (words, before) =>
    capitalisedInside(words, before) ||
    (/^ma\u00f1ana$/i.test(words) && /(?:^|\s)(?:la|las|esta|por|de|cada)\s+$/i.test(before)),
};

const PT = dayWords({
  'segunda-feira': 'mon',
  segunda: 'mon',
  'terça-feira': 'tue',
  terça: 'tue',
  'quarta-feira': 'wed',
  quarta: 'wed',
  'quinta-feira': 'thu',
  quinta: 'thu',
  'sexta-feira': 'fri',
  sexta: 'fri',
  sábado: 'sat',
  domingo: 'sun',
});
const ptLookup = (word: string) =>
  PT.lookup(word.replace(/s$/i, '')) ?? PT.lookup(word.replace(/s(-feira)s?$/i, '$1'));
const PT_UNITS: Record<string, Repeat['unit']> = {
  dias: 'day',
  semanas: 'week',
  meses: 'month',
  anos: 'year',
};
const portuguese: QuickAddLanguage = {
  parser: pt.casual,
  repeats: [
    {
      pattern: phrase('todo\\s+dia\\s+útil|todos\\s+os\\s+dias\\s+úteis'),
      read: () => WORKDAYS,
    },
    { pattern: phrase('(?:todo|todos\\s+os)\\s+fins?\\s+de\\s+semana'), read: () => WEEKEND },
    {
      pattern: phrase(
        `(?:toda|todo|todas\\s+as|todos\\s+os)\\s+(${PT.DAY}s?(?:\\s*(?:,|e)\\s*${PT.DAY}s?)*)`,
      ),
      read: (m) => onDays(daysIn(m[1] ?? '', /,|\be\b/i, ptLookup)),
    },
    {
      pattern: phrase('a\\s+cada\\s+(\\d{1,3})\\s+(dias|semanas|meses|anos)'),
      read: (m) => every(PT_UNITS[(m[2] ?? '').toLowerCase()] ?? 'day', Number(m[1])),
    },
    {
      pattern: phrase('todos\\s+os\\s+dias|todo\\s+dia|diariamente'),
      read: () => every('day'),
    },
    {
      pattern: phrase('toda\\s+semana|todas\\s+as\\s+semanas|semanalmente'),
      read: () => every('week'),
    },
    { pattern: phrase('todo\\s+mês|todos\\s+os\\s+meses|mensalmente'), read: () => every('month') },
    { pattern: phrase('todo\\s+ano|todos\\s+os\\s+anos|anualmente'), read: () => every('year') },
  ],
  time: clock('às|as|à', 'h'),
  lead: /(?:^|\s)(?:na|no|at\u00e9|em|dia)\s+$/i,
  startBefore: /(?:^|\s)(?:a\s+partir\s+d[eoa]|desde)(?:\s+(?:dia|o|a))?\s+$/i,
  // "segunda chance", "quinta edição": a weekday without "-feira" is a date only after a word
  // that says so ("na sexta", "até segunda").
  ordinary: (words, before) =>
    capitalisedInside(words, before) ||
    (/^(?:segunda|ter\u00e7a|quarta|quinta|sexta)$/i.test(words) &&
      !/(?:^|\s)(?:na|no|at\u00e9|pr\u00f3xima|nesta|esta|essa|de|toda)\s+$/i.test(before)),
};

const JA_DAY: Record<string, Weekday> = {
  月: 'mon',
  火: 'tue',
  水: 'wed',
  木: 'thu',
  金: 'fri',
  土: 'sat',
  日: 'sun',
};
const JA_UNITS: Record<string, Repeat['unit']> = {
  日: 'day',
  週間: 'week',
  か月: 'month',
  ヶ月: 'month',
  カ月: 'month',
  年: 'year',
};
const japanese: QuickAddLanguage = {
  parser: ja.casual,
  repeats: [
    { pattern: phrase('毎週平日|平日毎日|毎平日', false), read: () => WORKDAYS },
    { pattern: phrase('毎週末', false), read: () => WEEKEND },
    {
      // 毎週月曜日, 毎週月・木曜日: the weekday's 曜 is written at least once.
      pattern: phrase('毎週((?:[月火水木金土日](?:曜日?)?[、・と]?)+)', false),
      read: (m) =>
        (m[1] ?? '').includes('曜')
          ? onDays(
              // [月火水木金土日](?=曜|[、・と])
              [
                ...(m[1] ?? '').matchAll(
                  /[\u6708\u706b\u6c34\u6728\u91d1\u571f\u65e5](?=\u66dc|[\u3001\u30fb\u3068])/g,
                ),
              ].map((d) => JA_DAY[d[0]]),
            )
          : null,
    },
    {
      pattern: phrase('(\\d{1,3})\\s*(日|週間|か月|ヶ月|カ月|年)ごと', false),
      read: (m) => every(JA_UNITS[m[2] ?? ''] ?? 'day', Number(m[1])),
    },
    { pattern: phrase('毎日', false), read: () => every('day') },
    { pattern: phrase('毎週', false), read: () => every('week') },
    { pattern: phrase('毎月', false), read: () => every('month') },
    { pattern: phrase('毎年', false), read: () => every('year') },
  ],
  time: clock('', '時', false),
  // から ("from"): 明日から
  startAfter: /^\s*\u304b\u3089/,
  // "月曜日の資料": a date before の describes the thing that follows.
  ordinary: (_words, _before, after) => after.startsWith('の'),
};

const ZH_DAY: Record<string, Weekday> = {
  一: 'mon',
  二: 'tue',
  三: 'wed',
  四: 'thu',
  五: 'fri',
  六: 'sat',
  日: 'sun',
  天: 'sun',
};
const ZH_UNITS: Record<string, Repeat['unit']> = {
  天: 'day',
  周: 'week',
  星期: 'week',
  个星期: 'week',
  月: 'month',
  个月: 'month',
  年: 'year',
};
const chinese: QuickAddLanguage = {
  parser: zh.casual,
  repeats: [
    { pattern: phrase('每个?工作日', false), read: () => WORKDAYS },
    { pattern: phrase('每个?周末', false), read: () => WEEKEND },
    {
      pattern: phrase(
        '每(?:周|星期|礼拜)([一二三四五六日天](?:[、和,，](?:周|星期|礼拜)?[一二三四五六日天])*)',
        false,
      ),
      read: (m) =>
        // [一二三四五六日天]
        onDays(
          [...(m[1] ?? '').matchAll(/[\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u65e5\u5929]/g)].map(
            (d) => ZH_DAY[d[0]],
          ),
        ),
    },
    {
      pattern: phrase('每隔?\\s*(\\d{1,3})\\s*(天|周|个?星期|个?月|年)', false),
      read: (m) => every(ZH_UNITS[m[2] ?? ''] ?? 'day', Number(m[1])),
    },
    { pattern: phrase('每天|每日', false), read: () => every('day') },
    { pattern: phrase('每周|每个?星期|每礼拜', false), read: () => every('week') },
    { pattern: phrase('每个?月', false), read: () => every('month') },
    { pattern: phrase('每年', false), read: () => every('year') },
  ],
  time: clock('', '点|时|時', false),
  // 从 ("from") before the date, 开始 or 起 ("on") after it: 从明天开始, 明天起
  startBefore: /\u4ece\s*$/,
  startAfter: /^\s*(?:\u5f00\u59cb|\u8d77)/,
  ordinary: () => false,
};

const AR_DAY: Record<string, Weekday> = {
  اثنين: 'mon',
  إثنين: 'mon',
  ثلاثاء: 'tue',
  أربعاء: 'wed',
  اربعاء: 'wed',
  خميس: 'thu',
  جمعة: 'fri',
  سبت: 'sat',
  أحد: 'sun',
  احد: 'sun',
};
const AR_DAY_WORD = `(?:ال)?(?:${Object.keys(AR_DAY).join('|')})`;
// a leading و ("and"), then ال ("the")
const arLookup = (word: string) =>
  AR_DAY[
    word
      .trim()
      .replace(/^\u0648/, '')
      .replace(/^\u0627\u0644/, '')
  ];
const AR_UNITS: Record<string, Repeat['unit']> = {
  أيام: 'day',
  يوم: 'day',
  أسابيع: 'week',
  أسبوع: 'week',
  أشهر: 'month',
  شهور: 'month',
  شهر: 'month',
  سنوات: 'year',
  سنة: 'year',
  أعوام: 'year',
  عام: 'year',
};
/** The adverb ending -an, written يوميًا, يومياً or يوميا. */
const AN = '(?:ًا|اً|ا)';
const arabic: QuickAddLanguage = {
  parser: ar.casual,
  repeats: [
    { pattern: phrase('كل\\s+يوم\\s+عمل'), read: () => WORKDAYS },
    { pattern: phrase('كل\\s+عطلة\\s+(?:نهاية\\s+)?(?:ال)?أسبوع'), read: () => WEEKEND },
    {
      pattern: phrase(
        `كل\\s+(?:يوم\\s+)?(${AR_DAY_WORD}(?:(?:\\s*[،,]\\s*|\\s+)و?${AR_DAY_WORD})*)`,
      ),
      read: (m) =>
        onDays(
          [...(m[1] ?? '').matchAll(new RegExp(AR_DAY_WORD, 'gu'))].map((d) => arLookup(d[0])),
        ),
    },
    {
      pattern: phrase(`كل\\s+(\\d{1,3})\\s+(${Object.keys(AR_UNITS).join('|')})`),
      read: (m) => every(AR_UNITS[m[2] ?? ''] ?? 'day', Number(m[1])),
    },
    { pattern: phrase(`كل\\s+يوم|يومي${AN}`), read: () => every('day') },
    { pattern: phrase(`كل\\s+أسبوع|أسبوعي${AN}`), read: () => every('week') },
    { pattern: phrase(`كل\\s+شهر|شهري${AN}`), read: () => every('month') },
    { pattern: phrase(`كل\\s+(?:سنة|عام)|سنوي${AN}`), read: () => every('year') },
  ],
  time: clock('الساعة', ''),
  // ابتداءً من, بدءًا من, اعتبارًا من ("starting from"), the ending -an written or not
  startBefore:
    /(?:^|\s)(?:\u0627\u0628\u062a\u062f\u0627\u0621|\u0628\u062f\u0621|\u0627\u0639\u062a\u0628\u0627\u0631)(?:\u064b\u0627|\u0627\u064b|\u064b|\u0627)?\s+\u0645\u0646\s+$/u,
  // "اليوم الوطني" (the national day): "the day" followed by its adjective is no date.
  // اليوم ("today") before a word with ال is a name ("اليوم الوطني"), not a date
  ordinary: (words, _before, after) =>
    /^\u0627\u0644\u064a\u0648\u0645$/.test(words) && /^\s*\u0627\u0644\p{L}/u.test(after),
};

const LANGUAGES: Readonly<Record<Exclude<LanguageTag, 'en'>, QuickAddLanguage>> = {
  de: german,
  fr: french,
  es: spanish,
  'pt-BR': portuguese,
  ja: japanese,
  'zh-CN': chinese,
  ar: arabic,
};

/** The reader of a language besides English (pt-PT reads as pt-BR); null for English or none. */
export function quickAddLanguage(tag: string | null | undefined): QuickAddLanguage | null {
  const matched = matchLanguageTag(tag);
  return matched && matched !== 'en' ? LANGUAGES[matched] : null;
}
