import { describe, expect, it } from 'vitest';
import type { Todo } from '@tally/contract';
import { undoCallsOf } from './bulk-todos';

const todo = (id: number, dueDate: string | null): Todo => ({
  id,
  title: `Todo ${id}`,
  description: null,
  groupId: null,
  completed: false,
  created: '2026-11-20T10:00:00.000Z',
  dueDate,
  dueTime: null,
  repeat: null,
  remindMinutesBefore: null,
  tags: [],
  priority: 0,
  parentId: null,
  startDate: null,
  position: 0,
  version: 1,
});

describe('undo of a bulk due date', () => {
  it('puts each todo the server changed back on its own date, one call per date', () => {
    const before = new Map([
      [1, todo(1, '2026-11-26')],
      [2, todo(2, '2026-11-27')],
      [3, todo(3, '2026-11-26')],
      [4, todo(4, null)],
    ]);
    const changed = [1, 2, 3, 4].map((id) => todo(id, '2026-11-29'));
    expect(
      undoCallsOf({ ids: [1, 2, 3, 4, 5], action: 'due', dueDate: '2026-11-29' }, changed, before),
    ).toEqual([
      { ids: [1, 3], action: 'due', dueDate: '2026-11-26' },
      { ids: [2], action: 'due', dueDate: '2026-11-27' },
      { ids: [4], action: 'due', dueDate: null },
    ]);
  });
});
