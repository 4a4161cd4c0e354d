import type { Todo } from '@tally/contract';
import { defaultTodo } from '@tally/contract/todo-shape';
import { describe, expect, it } from 'vitest';
import { queryOfChips, readQuery, todosOfQuery } from './run-filter';

const todo = (fields: Partial<Todo>): Todo =>
  defaultTodo({
    id: 1,
    title: 'A todo',
    created: '2026-03-01T12:00:00.000Z',
    position: 0,
    ...fields,
  });

const groups = [{ id: 7, name: 'R&D team' }];
const now = Date.parse('2026-03-10T12:00:00Z');

describe('saved filters in the browser', () => {
  it('writes the query of the chips, operators in names made plain', () => {
    expect(
      queryOfChips({
        groupName: 'R&D team',
        tag: 'home',
        priority: 'p1',
        dates: 'today',
        text: 'milk',
      }),
    ).toBe('#R\\&D team & @home & p1 & today & search: milk');
    expect(queryOfChips({ groupName: '', tag: '', priority: '', dates: '', text: '' })).toBe('');
  });

  it("shows the todos of the query on the user's day, as the server would", () => {
    const todos = [
      todo({ id: 1, groupId: 7, priority: 3, dueDate: '2026-03-11' }),
      todo({ id: 2, groupId: 7, priority: 3, dueDate: '2026-03-10' }),
      todo({ id: 3, priority: 3, dueDate: '2026-03-11' }),
    ];
    const query = queryOfChips({
      groupName: 'R&D team',
      tag: '',
      priority: 'p1',
      dates: 'today',
      text: '',
    });
    expect(todosOfQuery(query, groups, todos, now, 'Pacific/Auckland').map((t) => t.id)).toEqual([
      1,
    ]);
    expect(todosOfQuery(query, groups, todos, now, 'UTC').map((t) => t.id)).toEqual([2]);
  });

  it('gives the reader’s sentence for a query it cannot read', () => {
    expect(readQuery('today & due befor: Dec 1', groups, now, 'UTC')).toEqual({
      filter: null,
      error: '`due befor:` at 9: did you mean `due before:`?',
    });
    expect(todosOfQuery('(', groups, [todo({})], now, 'UTC')).toEqual([]);
  });
});
