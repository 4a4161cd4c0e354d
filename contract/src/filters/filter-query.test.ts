import { describe, expect, it } from 'vitest';
import type { Todo } from '../todos.js';
import { defaultTodo } from '../todo-shape.js';
import { readFilterDate, startOfDayIn, wallClockIn } from './filter-dates.js';
import { FilterError, filterTodos, parseFilter, type FilterContext } from './filter-query.js';

// Sunday 29 November 2026, 10:30 in Paris.
const context: FilterContext = {
  today: '2026-11-29',
  time: '10:30',
  timeZone: 'Europe/Paris',
  groups: [
    { id: 1, name: 'Work' },
    { id: 2, name: 'Home' },
    { id: 3, name: 'Side project' },
  ],
};

let nextId = 1;
const todo = (fields: Partial<Todo>): Todo =>
  defaultTodo({
    id: nextId++,
    title: 'A todo',
    created: '2026-11-01T12:00:00.000Z',
    position: 0,
    ...fields,
  });

const todos = {
  today: todo({ title: 'Due today', dueDate: '2026-11-29' }),
  todayEarly: todo({ title: 'Due today at 9', dueDate: '2026-11-29', dueTime: '09:00' }),
  tomorrow: todo({ title: 'Due tomorrow', dueDate: '2026-11-30', groupId: 1, priority: 3 }),
  late: todo({ title: 'Late one', dueDate: '2026-11-20', tags: ['Errand'], priority: 2 }),
  nextWeek: todo({ title: 'Next week', dueDate: '2026-12-05', tags: ['errand', 'car'] }),
  far: todo({ title: 'Far away', dueDate: '2026-12-12', groupId: 2, priority: 1 }),
  undated: todo({ title: 'Buy milk', description: 'Oat, not cow', groupId: 3 }),
  done: todo({ title: 'Done one', completed: true, dueDate: '2026-11-29' }),
  repeating: todo({
    title: 'Water plants',
    dueDate: '2026-12-01',
    repeat: { every: 1, unit: 'week', from: 'due' },
  }),
  custom: todo({ title: 'Calendar rule', customRepeat: 'FREQ=WEEKLY;COUNT=5' }),
  child: todo({ title: 'A step', parentId: 1, startDate: '2026-12-02' }),
  old: todo({ title: 'Café visit', created: '2026-10-01T08:00:00.000Z', startDate: '2026-11-01' }),
};
const all = Object.values(todos);

/** The titles the query shows over every todo above. */
const shown = (query: string) =>
  filterTodos(parseFilter(query, context), all).map((found) => found.title);
const titles = (...picked: Todo[]) => picked.map((found) => found.title);

/** The message of the error the query makes. */
const error = (query: string) => {
  try {
    parseFilter(query, context);
  } catch (caught) {
    expect(caught).toBeInstanceOf(FilterError);
    return (caught as FilterError).message;
  }
  throw new Error(`"${query}" was read`);
};

describe('filter terms', () => {
  it('reads the due date words', () => {
    expect(shown('today')).toEqual(titles(todos.today, todos.todayEarly));
    expect(shown('tomorrow')).toEqual(titles(todos.tomorrow));
    expect(shown('overdue')).toEqual(titles(todos.todayEarly, todos.late));
    expect(shown('no date')).toEqual(titles(todos.undated, todos.custom, todos.child, todos.old));
    expect(shown('no due date')).toEqual(shown('no date'));
  });

  it('reads due before, due after, due on and next N days', () => {
    expect(shown('due before: Nov 30')).toEqual(titles(todos.today, todos.todayEarly, todos.late));
    expect(shown('due after: 2026-12-04')).toEqual(titles(todos.nextWeek, todos.far));
    expect(shown('due: Dec 12')).toEqual(titles(todos.far));
    expect(shown('Dec 12')).toEqual(titles(todos.far));
    expect(shown('next 7 days')).toEqual(
      titles(todos.today, todos.todayEarly, todos.tomorrow, todos.nextWeek, todos.repeating),
    );
    expect(shown('3 days')).toEqual(
      titles(todos.today, todos.todayEarly, todos.tomorrow, todos.repeating),
    );
  });

  it('reads #group and @tag in any case', () => {
    expect(shown('#work')).toEqual(titles(todos.tomorrow));
    expect(shown('#Side project')).toEqual(titles(todos.undated));
    expect(shown('@errand')).toEqual(titles(todos.late, todos.nextWeek));
    expect(shown('@CAR')).toEqual(titles(todos.nextWeek));
    expect(shown('no tags & #Home')).toEqual(titles(todos.far));
    expect(shown('no labels & #Home')).toEqual(titles(todos.far));
  });

  it('reads p1 as the highest priority and p4 as none', () => {
    expect(shown('p1')).toEqual(titles(todos.tomorrow));
    expect(shown('p2')).toEqual(titles(todos.late));
    expect(shown('p3')).toEqual(titles(todos.far));
    expect(shown('p4 & due: today')).toEqual(titles(todos.today, todos.todayEarly));
    expect(shown('no priority')).toEqual(shown('p4'));
  });

  it('searches words of the title, description and tags, accents ignored', () => {
    expect(shown('search: milk')).toEqual(titles(todos.undated));
    expect(shown('search: OAT')).toEqual(titles(todos.undated));
    expect(shown('search: cafe')).toEqual(titles(todos.old));
    expect(shown('search: errand')).toEqual(titles(todos.late, todos.nextWeek));
    expect(shown('search: late one')).toEqual(titles(todos.late));
  });

  it('compares plain and accented text as search does', () => {
    const words = todo({ title: 'Ship_it! v2.0', description: 'CAFÉ—naïve ﬁle', tags: ['Tag-1'] });
    const found = (query: string) => filterTodos(parseFilter(query, context), [words]).length;
    for (const query of [
      'search: ship',
      'search: it v2',
      'search: 0',
      'search: cafe',
      'search: naive file',
      'search: tag 1',
    ]) {
      expect(found(query), query).toBe(1);
    }
    expect(found('search: ship_it')).toBe(1);
    expect(found('search: shipit')).toBe(0);
  });

  it('reads recurring, subtask, created and start dates', () => {
    expect(shown('recurring')).toEqual(titles(todos.repeating, todos.custom));
    expect(shown('subtask')).toEqual(titles(todos.child));
    expect(shown('!subtask & no date')).toEqual(titles(todos.undated, todos.custom, todos.old));
    expect(shown('created before: Oct 2')).toEqual(titles(todos.old));
    expect(shown('created after: 2026-10-01')).toHaveLength(all.length - 2);
    expect(shown('start before: Dec 1')).toEqual(titles(todos.old));
    expect(shown('start after: Dec 1')).toEqual(titles(todos.child));
  });

  it('shows open todos unless the list names completed', () => {
    expect(shown('due: today')).not.toContain('Done one');
    expect(shown('completed')).toEqual(titles(todos.done));
    expect(shown('today & !completed')).toEqual(titles(todos.today, todos.todayEarly));
  });
});

describe('filter operators', () => {
  it('combines with &, | and !, & binding tighter than |', () => {
    expect(shown('#Work | #Home')).toEqual(titles(todos.tomorrow, todos.far));
    expect(shown('@errand & p2')).toEqual(titles(todos.late));
    expect(shown('!no date & !@errand & !recurring & !#Work & !#Home')).toEqual(
      titles(todos.today, todos.todayEarly),
    );
    expect(shown('p1 | p2 & @car')).toEqual(titles(todos.tomorrow));
  });

  it('groups with parentheses', () => {
    expect(shown('(p1 | p2) & @errand')).toEqual(titles(todos.late));
    expect(shown('!(today | no date)')).toEqual(
      titles(todos.tomorrow, todos.late, todos.nextWeek, todos.far, todos.repeating),
    );
  });

  it('shows lists separated by commas one after another, each todo once', () => {
    expect(shown('#Home, overdue, today')).toEqual(
      titles(todos.far, todos.todayEarly, todos.late, todos.today),
    );
    expect(parseFilter('p1, p2', context).lists).toHaveLength(2);
  });

  it('reads a backslash as making the next character plain', () => {
    const plus = todo({ title: 'R&D budget' });
    expect(filterTodos(parseFilter('search: r\\&d', context), [plus])).toEqual([plus]);
  });
});

describe('filter errors', () => {
  it('points at an unknown word and suggests the one meant', () => {
    expect(error('today & due befor: Dec 1')).toBe(
      '`due befor:` at 9: did you mean `due before:`?',
    );
    expect(error('overdeu')).toBe('`overdeu` at 1: did you mean `overdue`?');
    expect(error('flibbertigibbet')).toBe('`flibbertigibbet` at 1: not a filter word');
  });

  it('names an unknown group, with the closest one', () => {
    expect(error('#Wrok')).toBe('`#Wrok` at 1: no such group; did you mean `#Work`?');
    expect(error('#Garden')).toBe('`#Garden` at 1: no such group');
    expect(error('#')).toBe('`#` at 1: a group name follows #');
  });

  it('refuses an empty tag, a priority out of range and an empty search', () => {
    expect(error('@')).toBe('`@` at 1: a tag name (no spaces) follows @');
    expect(error('p5')).toBe('`p5` at 1: priorities are p1 (highest) to p4 (none)');
    expect(error('search: ...')).toBe('`search: ...` at 1: search: needs a word to look for');
  });

  it('refuses a date it cannot read and days out of range', () => {
    expect(error('due before: someday')).toBe(
      '`due before: someday` at 1: `someday` is not a date (try 2026-12-12, Dec 12 or next monday)',
    );
    expect(error('due:')).toBe('`due:` at 1: a date follows `due:`');
    expect(error('next 0 days')).toBe('`next 0 days` at 1: the days are 1 to 3650');
  });

  it('points at operators without operands and unbalanced parentheses', () => {
    expect(error('')).toBe('the filter is empty');
    expect(error('today &')).toBe('`&` at 7: something to match follows it');
    expect(error('| today')).toBe('`|` at 1: a filter word, #group, @tag, ! or ( goes here');
    expect(error('today, ')).toBe('`,` at 6: something to match follows it');
    expect(error('(today | p1')).toBe('`(` at 1: this ( is never closed');
    expect(error('today)')).toBe('`)` at 6: this ) closes nothing');
    expect(error('(today) p1')).toBe('`p1` at 9: put & or | before it');
    expect(error('x'.repeat(1001))).toBe('a filter is at most 1000 characters');
  });

  it('keeps the position and length of the words at fault', () => {
    try {
      parseFilter('p1 & overdeu', context);
    } catch (caught) {
      expect(caught).toMatchObject({ index: 5, length: 7 });
    }
    expect.assertions(1);
  });
});

describe('filter dates', () => {
  it('reads the forms people type', () => {
    const read = (text: string) => readFilterDate(text, '2026-11-29');
    expect(read('2026-12-12')).toBe('2026-12-12');
    expect(read('2026-02-30')).toBeNull();
    expect(read('Dec 12')).toBe('2026-12-12');
    expect(read('december 12th 2027')).toBe('2027-12-12');
    expect(read('12 Dec')).toBe('2026-12-12');
    expect(read('Sept 3')).toBe('2026-09-03');
    expect(read('in 3 days')).toBe('2026-12-02');
    expect(read('in 1 month')).toBe('2026-12-29');
    expect(read('2 weeks ago')).toBe('2026-11-15');
    expect(read('next week')).toBe('2026-12-06');
    expect(read('monday')).toBe('2026-11-30');
    expect(read('sunday')).toBe('2026-11-29');
    expect(read('next sunday')).toBe('2026-12-06');
    expect(read('last friday')).toBe('2026-11-27');
    expect(read('yesterday')).toBe('2026-11-28');
    expect(read('someday')).toBeNull();
    expect(read('Foo 12')).toBeNull();
  });

  it("finds the instant a day starts in the user's zone", () => {
    expect(new Date(startOfDayIn('2026-07-01', 'Europe/Paris')).toISOString()).toBe(
      '2026-06-30T22:00:00.000Z',
    );
    expect(new Date(startOfDayIn('2026-12-01', 'America/New_York')).toISOString()).toBe(
      '2026-12-01T05:00:00.000Z',
    );
    expect(new Date(startOfDayIn('2026-03-29', 'Europe/Paris')).toISOString()).toBe(
      '2026-03-28T23:00:00.000Z',
    );
    expect(startOfDayIn('2026-01-01', 'UTC')).toBe(Date.UTC(2026, 0, 1));
  });

  it('tells the date and clock time of an instant in a zone', () => {
    const instant = Date.parse('2026-03-10T12:00:00Z');
    expect(wallClockIn(instant, 'Pacific/Auckland')).toEqual({
      today: '2026-03-11',
      time: '01:00',
    });
    expect(wallClockIn(instant, 'America/New_York')).toEqual({
      today: '2026-03-10',
      time: '08:00',
    });
  });
});
