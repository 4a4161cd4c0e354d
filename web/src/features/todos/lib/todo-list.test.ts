import { describe, expect, it } from 'vitest';
import type { Todo } from '@tally/contract';
import { defaultTodo } from '@tally/contract/todo-shape';
import { deriveTodoList, type TodoListInput } from './todo-list';

const todo = (id: number, fields: Partial<Todo> = {}) =>
  defaultTodo({ id, title: `Todo ${id}`, ...fields });
const ids = (todos: readonly Todo[]) => todos.map((t) => t.id);

const list = (sorted: Todo[], input: Partial<TodoListInput> = {}) =>
  deriveTodoList({
    sorted,
    searching: false,
    filter: 'all',
    hideCompleted: false,
    showLater: false,
    today: '2026-03-02',
    lingering: new Set(),
    ...input,
  });

describe('the All list', () => {
  it('keeps the given order, open todos first, then the Completed part', () => {
    const parts = list([todo(4), todo(3, { completed: true }), todo(2), todo(1)]);
    expect(ids(parts.visible)).toEqual([4, 3, 2, 1]);
    expect(ids(parts.open)).toEqual([4, 2, 1]);
    expect(ids(parts.done)).toEqual([3]);
  });

  it("shows the tab's todos only: a group's, or the ungrouped ones", () => {
    const todos = [todo(3, { groupId: 7 }), todo(2), todo(1, { groupId: 8 })];
    expect(ids(list(todos, { filter: 7 }).visible)).toEqual([3]);
    expect(ids(list(todos, { filter: 'none' }).visible)).toEqual([2]);
  });

  it('hides completed todos when asked, and counts the matches it hides during a search', () => {
    const todos = [todo(3, { completed: true }), todo(2), todo(1, { completed: true })];
    expect(ids(list(todos, { hideCompleted: true }).visible)).toEqual([2]);
    expect(list(todos, { hideCompleted: true }).hiddenMatches).toBe(0);
    const searched = list(todos, { hideCompleted: true, searching: true });
    expect(searched.hiddenMatches).toBe(2);
  });

  it('shows a search in one list, completed matches in their place', () => {
    const parts = list([todo(2, { completed: true }), todo(1)], { searching: true });
    expect(ids(parts.open)).toEqual([2, 1]);
    expect(parts.done).toEqual([]);
  });

  it('leaves out todos hidden until a later day unless Show later todos is on', () => {
    const todos = [todo(3, { startDate: '2026-03-03' }), todo(2, { startDate: '2026-03-02' })];
    const parts = list(todos);
    expect(ids(parts.visible)).toEqual([2]);
    expect(parts.hasLater).toBe(true);
    expect(ids(list(todos, { showLater: true }).visible)).toEqual([3, 2]);
    expect(list([todo(1)]).hasLater).toBe(false);
  });

  it('keeps a todo seen open in its place once completed', () => {
    const parts = list([todo(2, { completed: true }), todo(1)], { lingering: new Set([2]) });
    expect(ids(parts.open)).toEqual([2, 1]);
  });
});
