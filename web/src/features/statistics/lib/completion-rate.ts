import type { SinceStatistics } from '@tally/contract';

/**
 * Task Completion Rate (Last 30 Days), docs/product.md, Differences, item 2: completed / created
 * of the 30-day since result, as a rounded percentage; 0 when nothing was created; never above 100.
 */
export function completionRate(since: Pick<SinceStatistics, 'todosCreated' | 'todosCompleted'>) {
  if (since.todosCreated <= 0) return 0;
  return Math.min(100, Math.round((since.todosCompleted / since.todosCreated) * 100));
}
