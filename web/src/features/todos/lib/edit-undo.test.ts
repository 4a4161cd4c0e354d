import { defaultTodo } from '@tally/contract/todo-shape';
import { describe, expect, it } from 'vitest';
import { editUndoOf } from './edit-undo';

const block = defaultTodo({
  id: 7,
  title: 'Write the report',
  created: '2026-11-01T00:00:00.000Z',
  dueDate: '2026-12-01',
  dueTime: '09:00',
  durationMinutes: 30,
  position: 0,
});

describe('the Undo of an edit', () => {
  it("names a time block's new length and puts the old one back", () => {
    const undo = editUndoOf(block, { ...block, durationMinutes: 60, version: 2 }, []);
    expect(undo?.text).toBe('Changed the duration of "Write the report"');
    expect(undo?.body).toMatchObject({ durationMinutes: 30 });
  });
});
