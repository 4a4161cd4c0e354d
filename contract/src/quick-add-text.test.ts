import { describe, expect, it } from 'vitest';
import type { Weekday } from './dates.js';
import type { Group } from './groups.js';
import { firstOccurrence, readQuickAddText, type QuickAddText } from './quick-add-text.js';
import type { Repeat } from './todos.js';

// Monday 23 November 2026, 12:00 in the test's own zone.
const now = new Date(2026, 10, 23, 12, 0);
const groups: Group[] = [
  { id: 1, name: 'Home', color: '#84CC16', version: 1 },
  { id: 2, name: 'Work stuff', color: '#3B82F6', version: 1 },
];

const parse = (input: string, dismissed: string[] = [], hasDate = false) =>
  readQuickAddText(input, { groups, dismissed: new Set(dismissed), now, hasDate });

const chips = (result: QuickAddText<Group>) =>
  result.chips.map((chip) => `${chip.kind}: ${chip.value}`);

describe('quick add', () => {
  it('reads @tags and a priority beside a group and a date, each a removable chip', () => {
    const result = parse('Call the bank @Finance @phone p1 #Home tomorrow');
    expect(result).toMatchObject({
      title: 'Call the bank',
      tags: ['Finance', 'phone'],
      priority: 3,
      group: { id: 1 },
      dueDate: '2026-11-24',
    });
    expect(chips(result)).toEqual([
      'date: 2026-11-24',
      'group: Home',
      'tag: Finance',
      'tag: phone',
      'priority: 3',
    ]);
    const kept = parse('Call the bank @Finance !!', ['tag:finance']);
    expect(kept).toMatchObject({ title: 'Call the bank @Finance', priority: 2 });
    expect(kept.tags).toBeUndefined();
  });

  it('reads "Pay rent tomorrow 9:00 #Home every month"', () => {
    const result = parse('Pay rent tomorrow 9:00 #Home every month');
    expect(result).toMatchObject({
      title: 'Pay rent',
      dueDate: '2026-11-24',
      dueTime: '09:00',
      group: { id: 1 },
      repeat: { every: 1, unit: 'month', from: 'due' },
    });
    expect(chips(result)).toEqual([
      'date: 2026-11-24',
      'time: 09:00',
      'group: Home',
      'repeat: every month',
    ]);
    expect(result.chips.map((chip) => chip.text)).toEqual([
      'tomorrow',
      '9:00',
      '#Home',
      'every month',
    ]);
  });

  it.each([
    'check money',
    'may the force be with you',
    'march on',
    'Book flight for June',
    'fix the sun roof',
    'sat down with Bob',
    'Meeting at 5',
    'lunch at noon',
    'Do it now',
    'Watch Friday Night Lights',
    'Read the weekly report',
    'Buy 2 apples',
    'call back in an hour',
    '#Garden fence',
    'Tomorrow',
  ])('leaves "%s" as typed', (input) => {
    const result = parse(input);
    expect(result.chips).toEqual([]);
    expect(result.title).toBe(input);
    expect(result.dueDate).toBeUndefined();
  });

  it.each([
    ['Call Sunday', 'Call', '2026-11-29', 'date: 2026-11-29'],
    ['Dentist Dec 4', 'Dentist', '2026-12-04', 'date: 2026-12-04'],
    ['Renew passport 2027-02-01', 'Renew passport', '2027-02-01', 'date: 2027-02-01'],
    ['Pack in 3 days', 'Pack', '2026-11-26', 'date: 2026-11-26'],
    ['Dinner tonight', 'Dinner', '2026-11-23', 'date: 2026-11-23'],
  ])('reads the date of "%s"', (input, title, dueDate, chip) => {
    const result = parse(input);
    expect(result).toMatchObject({ title, dueDate });
    expect(chips(result)).toEqual([chip]);
  });

  it('reads a time alone as today (or tomorrow once it has passed), shown as a date chip', () => {
    expect(parse('Call Bob 17:00')).toMatchObject({
      title: 'Call Bob',
      dueDate: '2026-11-23',
      dueTime: '17:00',
    });
    expect(chips(parse('Call Bob at 9am'))).toEqual(['date: 2026-11-24', 'time: 09:00']);
    expect(parse('Call Bob at 9am').title).toBe('Call Bob');
    // With a date set in the form, the time needs none.
    expect(chips(parse('Call Bob 17:00', [], true))).toEqual(['time: 17:00']);
  });

  it('matches an existing group ignoring case, the longest name first', () => {
    expect(parse('Sweep #home')).toMatchObject({ title: 'Sweep', group: { id: 1 } });
    expect(parse('Report #work stuff today')).toMatchObject({
      title: 'Report',
      group: { id: 2 },
      dueDate: '2026-11-23',
    });
    expect(parse('Sweep #homework').chips).toEqual([]);
  });

  it.each([
    [
      'Stand-up every weekday',
      { every: 1, unit: 'week', weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'] },
    ],
    ['Gym every mon and thu', { every: 1, unit: 'week', weekdays: ['mon', 'thu'] }],
    ['Bins every other Friday', { every: 2, unit: 'week', weekdays: ['fri'] }],
    ['Water plants every 3 days', { every: 3, unit: 'day' }],
    [
      'Team lunch every last friday',
      { every: 1, unit: 'month', nthWeekday: { n: -1, weekday: 'fri' } },
    ],
    ['Rent every month on the 31st', { every: 1, unit: 'month', monthDay: 31 }],
    ['Haircut every 6 weeks after completion', { every: 6, unit: 'week', from: 'completion' }],
  ])('reads the repeat of "%s"', (input, repeat) => {
    const result = parse(input);
    expect(result.repeat).toMatchObject(repeat);
    expect(result.chips.map((chip) => chip.kind)).toEqual(['date', 'repeat']);
  });

  it('dates a repeat without a date on its first occurrence', () => {
    expect(parse('Gym every thursday').dueDate).toBe('2026-11-26');
    expect(parse('Rent every month on the 31st').dueDate).toBe('2026-11-30');
    expect(parse('Water plants every day').dueDate).toBe('2026-11-23');
    expect(
      firstOccurrence(
        { every: 1, unit: 'month', nthWeekday: { n: 1, weekday: 'mon' }, from: 'due' },
        '2026-11-23',
      ),
    ).toBe('2026-12-07');
  });

  it('puts the words back when a chip is removed', () => {
    const all = parse('Pay rent tomorrow 9:00 #Home every month');
    const [date, time, group, repeat] = all.chips;
    expect(parse('Pay rent tomorrow 9:00 #Home every month', time?.dismiss)).toMatchObject({
      title: 'Pay rent 9:00',
      dueDate: '2026-11-24',
    });
    expect(parse('Pay rent tomorrow 9:00 #Home every month', group?.dismiss).title).toBe(
      'Pay rent #Home',
    );
    expect(
      parse('Pay rent tomorrow 9:00 #Home every month', repeat?.dismiss).repeat,
    ).toBeUndefined();
    // The date takes its time along (a time needs a date); the repeat then dates itself.
    const noDate = parse('Pay rent tomorrow 9:00 #Home every month', date?.dismiss);
    expect(noDate.title).toBe('Pay rent tomorrow 9:00');
    expect(noDate.dueTime).toBeUndefined();
    expect(chips(noDate)).toEqual(['date: 2026-11-23', 'group: Home', 'repeat: every month']);
  });
});

describe('quick add: the date a title gives', () => {
  it('starts a repeating todo whose time has passed today at its next occurrence', () => {
    const late = new Date(2026, 10, 23, 15, 56);
    const result = readQuickAddText('Take vitamins every day 8:00', {
      groups,
      dismissed: new Set(),
      now: late,
    });
    expect(result).toMatchObject({
      title: 'Take vitamins',
      dueDate: '2026-11-24',
      dueTime: '08:00',
    });
    // Later today it still starts today.
    expect(
      readQuickAddText('Take vitamins every day 18:00', {
        groups,
        dismissed: new Set(),
        now: late,
      }),
    ).toMatchObject({ dueDate: '2026-11-23', dueTime: '18:00' });
  });

  it('takes the last of two date phrases', () => {
    // Monday 23 November 2026: Wednesday is the 25th, Friday the 27th.
    expect(parse('Call Ann Wednesday, no, Friday').dueDate).toBe('2026-11-27');
    expect(parse('Call Ann Friday, no, Wednesday').dueDate).toBe('2026-11-25');
  });
});

describe('quick add: due words and weeks', () => {
  it('reads "by Dec 12" and "due Friday", and the word leaves the title with the date', () => {
    const by = parse('Pay the rent by Dec 12');
    expect(by).toMatchObject({ title: 'Pay the rent', dueDate: '2026-12-12' });
    expect(by.chips.map((chip) => chip.text)).toEqual(['by Dec 12']);
    expect(parse('Report due Friday')).toMatchObject({ title: 'Report', dueDate: '2026-11-27' });
    expect(parse('Pay by 12 Dec 9:30')).toMatchObject({
      title: 'Pay',
      dueDate: '2026-12-12',
      dueTime: '09:30',
    });
    // Month first, as written in the United States, reads it alike.
    expect(
      readQuickAddText('Pay the rent by Dec 12', { groups, now, monthFirst: true }),
    ).toMatchObject({ title: 'Pay the rent', dueDate: '2026-12-12' });
    // "by" with nothing read after it is an ordinary word.
    expect(parse('Stop by the bakery').title).toBe('Stop by the bakery');
  });

  it('reads "next week" as the next Monday, as Todoist does', () => {
    // Monday 23 November: the next Monday is the 30th, not a week from today's weekday.
    expect(parse('Plan the trip next week')).toMatchObject({
      title: 'Plan the trip',
      dueDate: '2026-11-30',
    });
    const sunday = new Date(2026, 10, 29, 12, 0);
    expect(readQuickAddText('Plan the trip next week', { groups, now: sunday })).toMatchObject({
      dueDate: '2026-11-30',
    });
    const thursday = new Date(2026, 10, 26, 12, 0);
    expect(readQuickAddText('Plan next week', { groups, now: thursday }).dueDate).toBe(
      '2026-11-30',
    );
  });

  it('reads the day in the zone given, not the process zone', () => {
    // 23:30 UTC on Monday is Tuesday 10:30 in Auckland.
    const late = new Date(Date.UTC(2026, 10, 23, 23, 30));
    expect(readQuickAddText('Call tomorrow', { groups, now: late, timeZone: 'UTC' }).dueDate).toBe(
      '2026-11-24',
    );
    expect(
      readQuickAddText('Call tomorrow', { groups, now: late, timeZone: 'Pacific/Auckland' })
        .dueDate,
    ).toBe('2026-11-25');
  });
});

describe('quick add: ordinary words stay', () => {
  it.each([
    'Ask Sunday school about volunteering',
    'Send notes from the 9:00 standup',
    'Today view capture test',
    'Tomorrow people meeting',
    'Buy Monday magazine',
  ])('keeps every word of "%s"', (input) => {
    const result = parse(input);
    expect(result.chips).toEqual([]);
    expect(result.title).toBe(input);
    expect(result.dueDate).toBeUndefined();
  });

  it.each([
    [
      'Ask Sunday school about volunteering tomorrow',
      'Ask Sunday school about volunteering',
      '2026-11-24',
    ],
    [
      'Send notes from the 9:00 standup by Friday',
      'Send notes from the 9:00 standup',
      '2026-11-27',
    ],
    ['Today view capture test on Wednesday', 'Today view capture test', '2026-11-25'],
  ])('takes only the date phrase out of "%s"', (input, title, dueDate) => {
    const result = parse(input);
    expect(result).toMatchObject({ title, dueDate });
    expect(result.dueTime).toBeUndefined();
    expect(result.chips.map((chip) => chip.kind)).toEqual(['date']);
  });

  it.each([
    ['Call mom tomorrow about the trip', 'Call mom about the trip', '2026-11-24'],
    ['Call Sunday', 'Call', '2026-11-29'],
    ['Tomorrow: call mom', 'call mom', '2026-11-24'],
    ['Call Ann, tomorrow', 'Call Ann', '2026-11-24'],
    ['Dinner tonight #Home', 'Dinner', '2026-11-23'],
  ])('still reads a date meant as one in "%s"', (input, title, dueDate) => {
    expect(parse(input)).toMatchObject({ title, dueDate });
  });
  it('reads a start date after "starts", beside a due date, and leaves "Restart" alone', () => {
    const result = parse('Plan the trip starts Wednesday due Friday');
    expect(result).toMatchObject({
      title: 'Plan the trip',
      startDate: '2026-11-25',
      dueDate: '2026-11-27',
    });
    expect(chips(result)).toEqual(['date: 2026-11-27', 'start: 2026-11-25']);
    expect(result.chips.find((chip) => chip.kind === 'start')?.text).toBe('starts Wednesday');
    expect(parse('Write it starting on Dec 4').startDate).toBe('2026-12-04');
    expect(parse('Restart the router tomorrow')).toMatchObject({
      title: 'Restart the router',
      dueDate: '2026-11-24',
    });
    const kept = parse('Plan the trip starts Wednesday', ['start:starts wednesday']);
    expect(kept).toMatchObject({ title: 'Plan the trip starts Wednesday', chips: [] });
  });

  it('names a #Name that is no group, which stays in the title', () => {
    expect(parse('Call mom tomorrow #Family')).toMatchObject({
      title: 'Call mom #Family',
      unknownGroup: 'Family',
    });
    expect(parse('Buy paint #Garden.').unknownGroup).toBe('Garden');
    expect(parse('Buy paint #home').unknownGroup).toBeUndefined();
  });
});

describe('quick add in the language (decision 180)', () => {
  const read = (language: string, input: string, dismissed: string[] = []) =>
    readQuickAddText(input, { groups, dismissed: new Set(dismissed), now, language });
  const weekly = (...weekdays: Weekday[]): Repeat => ({
    every: 1,
    unit: 'week',
    weekdays,
    from: 'due',
  });
  const each = (unit: Repeat['unit'], every = 1): Repeat => ({ every, unit, from: 'due' });
  // Monday 23 November 2026 at noon: tomorrow is the 24th, Friday the 27th.
  const TOMORROW = '2026-11-24';
  const FRIDAY = '2026-11-27';

  const READ: [language: string, input: string, expected: Partial<QuickAddText<Group>>][] = [
    ['de', 'Zahnarzt morgen um 9:30', { title: 'Zahnarzt', dueDate: TOMORROW, dueTime: '09:30' }],
    ['de', 'Steuer bis 4. Dezember', { title: 'Steuer', dueDate: '2026-12-04' }],
    ['de', 'Arzt am Freitag', { title: 'Arzt', dueDate: FRIDAY }],
    ['de', 'Anruf um 17 Uhr', { title: 'Anruf', dueDate: '2026-11-23', dueTime: '17:00' }],
    ['de', 'Müll rausbringen jeden Montag', { title: 'Müll rausbringen', repeat: weekly('mon') }],
    ['de', 'Sport montags und donnerstags', { title: 'Sport', repeat: weekly('mon', 'thu') }],
    ['de', 'Blumen gießen täglich', { title: 'Blumen gießen', repeat: each('day') }],
    ['de', 'Miete zahlen jeden Monat', { title: 'Miete zahlen', repeat: each('month') }],
    ['de', 'Bericht alle 2 Wochen', { title: 'Bericht', repeat: each('week', 2) }],
    ['fr', 'Dentiste demain à 9h30', { title: 'Dentiste', dueDate: TOMORROW, dueTime: '09:30' }],
    ['fr', 'Impôts le 4 décembre', { title: 'Impôts', dueDate: '2026-12-04' }],
    ['fr', 'Courir tous les jours', { title: 'Courir', repeat: each('day') }],
    ['fr', 'Réunion chaque lundi', { title: 'Réunion', repeat: weekly('mon') }],
    [
      'fr',
      'Sortir les poubelles tous les mardis et vendredis',
      { title: 'Sortir les poubelles', dueDate: TOMORROW, repeat: weekly('tue', 'fri') },
    ],
    [
      'es',
      'Dentista mañana a las 9:30',
      { title: 'Dentista', dueDate: TOMORROW, dueTime: '09:30' },
    ],
    ['es', 'Médico el viernes', { title: 'Médico', dueDate: FRIDAY }],
    ['es', 'Correr todos los días', { title: 'Correr', repeat: each('day') }],
    ['es', 'Informe cada semana', { title: 'Informe', repeat: each('week') }],
    ['es', 'Reunión cada lunes', { title: 'Reunión', repeat: weekly('mon') }],
    [
      'pt-BR',
      'Dentista amanhã às 9:30',
      { title: 'Dentista', dueDate: TOMORROW, dueTime: '09:30' },
    ],
    ['pt-BR', 'Médico na sexta', { title: 'Médico', dueDate: FRIDAY }],
    ['pt-BR', 'Academia toda segunda', { title: 'Academia', repeat: weekly('mon') }],
    ['pt-BR', 'Reunião toda segunda-feira', { title: 'Reunião', repeat: weekly('mon') }],
    ['pt-BR', 'Regar plantas todos os dias', { title: 'Regar plantas', repeat: each('day') }],
    ['ja', '歯医者 明日 9:30', { title: '歯医者', dueDate: TOMORROW, dueTime: '09:30' }],
    ['ja', '会議 明日の15時', { title: '会議', dueDate: TOMORROW, dueTime: '15:00' }],
    ['ja', '12月4日 税金', { title: '税金', dueDate: '2026-12-04' }],
    ['ja', '会議 明日15時30分', { title: '会議', dueDate: TOMORROW, dueTime: '15:30' }],
    ['ja', '薬を飲む 毎日', { title: '薬を飲む', repeat: each('day') }],
    ['ja', 'ゴミ出し 毎週月曜日', { title: 'ゴミ出し', repeat: weekly('mon') }],
    ['zh-CN', '明天 9:30 看牙医', { title: '看牙医', dueDate: TOMORROW, dueTime: '09:30' }],
    ['zh-CN', '星期五 看医生', { title: '看医生', dueDate: FRIDAY }],
    ['zh-CN', '开会 明天下午3点', { title: '开会', dueDate: TOMORROW, dueTime: '15:00' }],
    ['zh-CN', '每天 跑步', { title: '跑步', repeat: each('day') }],
    ['zh-CN', '每周一 开会', { title: '开会', repeat: weekly('mon') }],
    [
      'ar',
      'طبيب الأسنان غدا الساعة 9:30',
      { title: 'طبيب الأسنان', dueDate: TOMORROW, dueTime: '09:30' },
    ],
    ['ar', 'اجتماع يوم الجمعة', { title: 'اجتماع', dueDate: FRIDAY }],
    ['ar', 'الرياضة كل يوم', { title: 'الرياضة', repeat: each('day') }],
    ['ar', 'اجتماع كل يوم اثنين', { title: 'اجتماع', repeat: weekly('mon') }],
    ['ar', 'تقرير كل الاثنين والخميس', { title: 'تقرير', repeat: weekly('mon', 'thu') }],
  ];
  it.each(READ)('%s: reads "%s"', (language, input, expected) => {
    expect(read(language, input)).toMatchObject(expected);
  });

  const ORDINARY: [language: string, input: string][] = [
    ['de', 'Guten Morgen sagen'],
    ['de', 'Montagsmeeting vorbereiten'],
    ['de', 'Tägliche Übung planen'],
    ['fr', 'Bonjour à tous'],
    ['fr', 'Lire Vendredi ou la Vie sauvage'],
    ['es', 'Café por la mañana'],
    ['es', 'Comprar cada cosa'],
    ['pt-BR', 'Pedir segunda via do boleto'],
    ['pt-BR', 'Ver a quinta temporada'],
    ['ja', '日本語の勉強'],
    ['ja', '月曜日の資料'],
    ['zh-CN', '每个人的礼物'],
    ['ar', 'اليوم الوطني'],
    ['ar', 'الاحتفال باليوم الوطني'],
  ];
  it.each(ORDINARY)('%s: leaves "%s" as it is', (language, input) => {
    expect(read(language, input)).toEqual({ title: input, chips: [] });
  });

  it.each(['de', 'fr', 'es', 'pt-BR', 'ja', 'zh-CN', 'ar'])(
    '%s: understands English too',
    (language) => {
      expect(read(language, 'Pay rent tomorrow 9:00 every month')).toMatchObject({
        title: 'Pay rent',
        dueDate: TOMORROW,
        dueTime: '09:00',
        repeat: each('month'),
      });
    },
  );

  it('reads no other language than the one asked for, and English alone without one', () => {
    // English reads the time alone; "morgen" is a word to it.
    expect(read('en', 'Zahnarzt morgen um 9:30')).toMatchObject({ title: 'Zahnarzt morgen um' });
    expect(parse('Courir tous les jours').repeat).toBeUndefined();
    expect(read('de', 'Courir tous les jours').repeat).toBeUndefined();
    // A regional tag reads as the language Tally speaks: pt-PT as pt-BR.
    expect(read('pt-PT', 'Academia toda segunda').repeat).toEqual(weekly('mon'));
  });

  const STARTS: [language: string, input: string, title: string, startDate: string][] = [
    ['de', 'Projekt ab morgen', 'Projekt', TOMORROW],
    ['de', 'Projekt ab dem 4. Dezember', 'Projekt', '2026-12-04'],
    ['fr', 'Projet à partir de demain', 'Projet', TOMORROW],
    ['fr', 'Projet à partir du 4 décembre', 'Projet', '2026-12-04'],
    ['fr', 'Projet dès vendredi', 'Projet', FRIDAY],
    ['es', 'Proyecto a partir de mañana', 'Proyecto', TOMORROW],
    ['es', 'Proyecto a partir del viernes', 'Proyecto', FRIDAY],
    ['pt-BR', 'Projeto a partir de amanhã', 'Projeto', TOMORROW],
    ['pt-BR', 'Projeto a partir de sexta', 'Projeto', FRIDAY],
    ['ja', '企画 明日から', '企画', TOMORROW],
    ['ja', '企画 12月4日から', '企画', '2026-12-04'],
    ['zh-CN', '项目 从明天开始', '项目', TOMORROW],
    ['zh-CN', '项目 星期五起', '项目', FRIDAY],
    ['ar', 'مشروع ابتداءً من غدا', 'مشروع', TOMORROW],
    ['ar', 'مشروع اعتبارا من يوم الجمعة', 'مشروع', FRIDAY],
  ];
  it.each(STARTS)('%s: reads the start date in "%s"', (language, input, title, startDate) => {
    const result = read(language, input);
    expect(result).toMatchObject({ title, startDate });
    expect(result.dueDate).toBeUndefined();
  });

  it('reads a start date beside a due date in the language, and English "starts" too', () => {
    expect(read('de', 'Projekt bis Freitag, ab morgen')).toMatchObject({
      title: 'Projekt',
      startDate: TOMORROW,
      dueDate: FRIDAY,
    });
    expect(read('fr', 'Projet starts tomorrow')).toMatchObject({
      title: 'Projet',
      startDate: TOMORROW,
    });
  });

  it('leaves a removed start chip in the title, and its date is no due date', () => {
    const result = read('de', 'Projekt ab morgen');
    const chip = result.chips.find((c) => c.kind === 'start');
    expect(chip).toMatchObject({ text: 'ab morgen' });
    expect(read('de', 'Projekt ab morgen', chip?.dismiss)).toEqual({
      title: 'Projekt ab morgen',
      chips: [],
    });
  });

  it('leaves a range of dates in the title rather than read half of it', () => {
    expect(read('de', 'Projekt ab morgen bis Freitag')).toEqual({
      title: 'Projekt ab morgen bis Freitag',
      chips: [],
    });
  });

  it('reads no time as a start date ("ab 9 Uhr" is a time)', () => {
    const result = read('de', 'Sprechstunde ab 9 Uhr');
    expect(result.startDate).toBeUndefined();
  });

  it('leaves a removed repeat chip in the title', () => {
    const result = read('de', 'Müll rausbringen jeden Montag');
    const chip = result.chips.find((c) => c.kind === 'repeat');
    expect(chip).toMatchObject({ text: 'jeden Montag' });
    // Its words stay; "Montag" alone is then a date, as "Monday" is in English.
    const kept = read('de', 'Müll rausbringen jeden Montag', chip?.dismiss);
    expect(kept).toMatchObject({ title: 'Müll rausbringen jeden', dueDate: '2026-11-23' });
    expect(kept.repeat).toBeUndefined();
  });
});
