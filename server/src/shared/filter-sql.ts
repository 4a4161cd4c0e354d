import type { Filter, FilterList, FilterNode } from '@tally/contract/filter-query';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../db/schema.js';

type Todos = ExpressionBuilder<Database, 'todos'>;

/**
 * A filter's node as a condition on `todos`, true or false for every row and never NULL, so `!`
 * (SQL's NOT) flips it as the contract's evaluator does: a nullable column is tested for NULL
 * before it is compared.
 */
function condition(eb: Todos, node: FilterNode): Expression<SqlBool> {
  switch (node.kind) {
    case 'and':
      return eb.and([condition(eb, node.left), condition(eb, node.right)]);
    case 'or':
      return eb.or([condition(eb, node.left), condition(eb, node.right)]);
    case 'not':
      return eb.not(condition(eb, node.node));
    case 'due': {
      const parts = [eb('todos.due_date', 'is not', null)];
      if (node.from !== null) parts.push(eb('todos.due_date', '>=', node.from));
      if (node.to !== null) parts.push(eb('todos.due_date', '<=', node.to));
      return eb.and(parts);
    }
    case 'noDate':
      return eb('todos.due_date', 'is', null);
    case 'overdue':
      return eb.and([
        eb('todos.due_date', 'is not', null),
        eb.or([
          eb('todos.due_date', '<', node.today),
          eb.and([
            eb('todos.due_date', '=', node.today),
            eb('todos.due_time', 'is not', null),
            eb('todos.due_time', '<', node.time),
          ]),
        ]),
      ]);
    case 'group':
      return eb.and([eb('todos.group_id', 'is not', null), eb('todos.group_id', 'in', node.ids)]);
    case 'tag':
      return eb(
        'todos.id',
        'in',
        eb
          .selectFrom('todo_tags')
          .innerJoin('tags', 'tags.id', 'todo_tags.tag_id')
          .select('todo_tags.todo_id')
          .where('tags.name_lower', '=', node.name),
      );
    case 'noTags':
      return eb.not(
        eb.exists(
          eb
            .selectFrom('todo_tags')
            .select('todo_tags.todo_id')
            .whereRef('todo_tags.todo_id', '=', 'todos.id'),
        ),
      );
    case 'priority':
      return eb('todos.priority', '=', node.value);
    case 'search':
      // Search words are letters and digits only (contract's searchWords): no LIKE wildcards.
      return eb.and(node.words.map((word) => eb('todos.search_text', 'like', `%${word}%`)));
    case 'recurring':
      return eb.or([eb('todos.repeat', 'is not', null), eb('todos.custom_repeat', 'is not', null)]);
    case 'subtask':
      return eb('todos.parent_id', 'is not', null);
    case 'completed':
      return eb('todos.completed', '=', 1);
    case 'created':
      return eb('todos.created_at', node.before ? '<' : '>=', node.instant);
    case 'start':
      return eb.and([
        eb('todos.start_date', 'is not', null),
        eb('todos.start_date', node.before ? '<' : '>', node.date),
      ]);
  }
}

/** Every list of a filter as one condition: a todo any of them shows (a calendar feed's set). */
export function filterCondition(eb: Todos, filter: Filter): Expression<SqlBool> {
  return eb.or(filter.lists.map((list) => filterListCondition(eb, list)));
}

/** One list of a filter as a condition on `todos`: open todos only unless it names completed. */
export function filterListCondition(eb: Todos, list: FilterList): Expression<SqlBool> {
  const matches = condition(eb, list.node);
  return list.openOnly ? eb.and([eb('todos.completed', '=', 0), matches]) : matches;
}
