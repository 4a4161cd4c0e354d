import { describe, expect, it } from 'vitest';
import { completionRate } from './completion-rate';

describe('completionRate (docs/product.md, Differences, item 2)', () => {
  it('is completed / created × 100, rounded', () => {
    expect(completionRate({ todosCreated: 3, todosCompleted: 2 })).toBe(67);
    expect(completionRate({ todosCreated: 8, todosCompleted: 1 })).toBe(13);
  });
  it('is 0 when nothing was created, and never above 100', () => {
    expect(completionRate({ todosCreated: 0, todosCompleted: 5 })).toBe(0);
    expect(completionRate({ todosCreated: 2, todosCompleted: 5 })).toBe(100);
  });
});
