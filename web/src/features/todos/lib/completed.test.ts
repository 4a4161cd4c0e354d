import { describe, expect, it } from 'vitest';
import type { Todo } from '@tally/contract';
import { splitCompleted } from './completed';

const todo = (id: number, completed: boolean, parentId: number | null = null) =>
  ({ id, title: `Todo ${id}`, completed, parentId }) as Todo;

const ids = (todos: readonly Todo[]) => todos.map((t) => t.id);

describe('splitCompleted', () => {
  it('puts completed todos after the open ones, each part in the given order', () => {
    const { open, done } = splitCompleted(
      [todo(5, false), todo(4, true), todo(3, false), todo(2, true)],
      new Set(),
    );
    expect(ids(open)).toEqual([5, 3]);
    expect(ids(done)).toEqual([4, 2]);
  });

  it('keeps a subtask with its parent, completed or not', () => {
    const { open, done } = splitCompleted(
      [todo(1, false), todo(2, true, 1), todo(3, true), todo(4, false, 3), todo(5, false, 4)],
      new Set(),
    );
    expect(ids(open)).toEqual([1, 2]);
    expect(ids(done)).toEqual([3, 4, 5]);
  });

  it('treats a subtask whose parent is not in the list as a todo of its own', () => {
    const { open, done } = splitCompleted([todo(2, true, 99)], new Set());
    expect(ids(open)).toEqual([]);
    expect(ids(done)).toEqual([2]);
  });

  it('leaves a todo completed while the list is on screen in its place', () => {
    const { open, done } = splitCompleted([todo(2, true), todo(1, true)], new Set([2]));
    expect(ids(open)).toEqual([2]);
    expect(ids(done)).toEqual([1]);
  });
});
