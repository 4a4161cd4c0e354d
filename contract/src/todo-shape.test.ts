import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { PatchTodoBodySchema, TodoSchema, type Todo } from './todos.js';
import {
  TODO_WRITABLE_FIELDS,
  defaultTodo,
  isHiddenUntilLater,
  isOverdue,
  sortTodos,
} from './todo-shape.js';

// TypeBox checks a format only when told what it means.
FormatRegistry.Set('date-time', (value) => !Number.isNaN(Date.parse(value)));

describe('the todo shape', () => {
  it('makes a whole todo from an id and a title, as the server makes a new one', () => {
    const todo = defaultTodo({ id: 7, title: 'Milk', created: '2026-03-01T12:00:00.000Z' });
    expect(Value.Check(TodoSchema, todo)).toBe(true);
    expect(todo).toMatchObject({ completed: false, tags: [], priority: 0, version: 1 });
    expect(todo.position).toBe(-Date.parse('2026-03-01T12:00:00.000Z'));
    expect(defaultTodo({ id: 1, title: 'A', priority: 3 }).priority).toBe(3);
  });

  it('names every field a PATCH takes, and nothing else', () => {
    expect([...TODO_WRITABLE_FIELDS].sort()).toEqual(
      Object.keys(PatchTodoBodySchema.properties).sort(),
    );
  });
});

describe('the list rules', () => {
  const at = (id: number, fields: Partial<Todo>) =>
    defaultTodo({
      id,
      title: `t${id}`,
      created: new Date(Date.UTC(2026, 0, 1, 0, 0, id)).toISOString(),
      ...fields,
    });

  it('order by due date (none last), then time, ties newest first', () => {
    const todos = [
      at(1, { dueDate: '2026-02-01' }),
      at(2, {}),
      at(3, { dueDate: '2026-01-15', dueTime: '09:00' }),
      at(4, { dueDate: '2026-01-15' }),
      at(5, { dueDate: '2026-02-01' }),
    ];
    expect(sortTodos(todos, 'due').map((todo) => todo.id)).toEqual([4, 3, 5, 1, 2]);
    expect(sortTodos(todos, 'created').map((todo) => todo.id)).toEqual([5, 4, 3, 2, 1]);
  });

  it('order titles without regard to case, and priorities highest first', () => {
    const todos = [
      at(1, { title: 'b', priority: 1 }),
      at(2, { title: 'A' }),
      at(3, { title: 'a', priority: 3 }),
    ];
    expect(sortTodos(todos, 'title').map((todo) => todo.id)).toEqual([3, 2, 1]);
    expect(sortTodos(todos, 'priority').map((todo) => todo.id)).toEqual([3, 1, 2]);
  });

  it('order by position in the manual order, ties by the higher id', () => {
    const todos = [at(1, { position: 2 }), at(2, { position: 1 }), at(3, { position: 2 })];
    expect(sortTodos(todos, 'manual').map((todo) => todo.id)).toEqual([2, 3, 1]);
  });

  it('call a todo overdue when open and due before now, and hidden before its start day', () => {
    const due = (dueDate: string, dueTime: string | null, completed = false) => ({
      dueDate,
      dueTime,
      completed,
    });
    expect(isOverdue(due('2026-03-01', null), '2026-03-02', '08:00')).toBe(true);
    expect(isOverdue(due('2026-03-02', '07:59'), '2026-03-02', '08:00')).toBe(true);
    expect(isOverdue(due('2026-03-02', '08:00'), '2026-03-02', '08:00')).toBe(false);
    expect(isOverdue(due('2026-03-02', null), '2026-03-02', '08:00')).toBe(false);
    expect(isOverdue(due('2026-03-01', null, true), '2026-03-02', '08:00')).toBe(false);
    expect(isHiddenUntilLater({ startDate: '2026-03-03' }, '2026-03-02')).toBe(true);
    expect(isHiddenUntilLater({ startDate: '2026-03-02' }, '2026-03-02')).toBe(false);
    expect(isHiddenUntilLater({ startDate: null }, '2026-03-02')).toBe(false);
  });
});
