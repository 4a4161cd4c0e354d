import { useEffect, useLayoutEffect, useRef } from 'react';
import type { Todo } from '@tally/contract';
import type { TodoSort } from '@tally/contract/constants';

/**
 * What a screen lets the global shortcuts and the command palette (web/src/app/palette) do on
 * it, with each command's argument. The screen registers a handler while it is shown; app/ runs
 * it by name, so neither imports the other (features never import app/, docs/decisions/040-import-boundaries-lint.md).
 */
export interface PageCommands {
  /** Opens the new-todo form with the focus in its title. */
  newTodo: undefined;
  /** Puts the focus in the /todos search box. */
  focusSearch: undefined;
  /** Shows a filter tab of /todos: all, the ungrouped todos, or one group's (by id). */
  showFilter: 'all' | 'none' | number;
  /** Opens a todo's detail view on /todos. */
  openTodo: Todo;
  /** Flips /todos' "Hide completed" switch. */
  toggleHideCompleted: undefined;
  /** Sorts the /todos view shown (kept for that view on the server, as its Sort menu does). */
  setSort: TodoSort;
}

export type PageCommand = keyof PageCommands;
type Handler<C extends PageCommand> = (argument: PageCommands[C]) => void;
type Pending = { [C in PageCommand]: { command: C; argument: PageCommands[C] } }[PageCommand];

const handlers = new Map<PageCommand, Handler<PageCommand>>();
/** Commands asked for before their screen was there: run when it registers them. */
let pending: Pending[] = [];

/** Whether the screen shown now offers the command. */
export function hasCommand(command: PageCommand): boolean {
  return handlers.has(command);
}

/**
 * Runs the command now if its screen is shown, else when that screen registers it (after the
 * caller has navigated there). Only the latest request for a command waits.
 */
export function runCommand<C extends PageCommand>(
  command: C,
  ...[argument]: PageCommands[C] extends undefined ? [] : [PageCommands[C]]
): void {
  const handler = handlers.get(command);
  if (handler) {
    handler(argument as PageCommands[PageCommand]);
    return;
  }
  pending = [
    ...pending.filter((request) => request.command !== command),
    { command, argument } as Pending,
  ];
}

/**
 * Offers `command` while the calling component is mounted (and `handler` is not null). The
 * latest handler is called, so it may close over fresh state without re-registering.
 */
export function useCommand<C extends PageCommand>(command: C, handler: Handler<C> | null): void {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  const offered = handler !== null;
  useEffect(() => {
    if (!offered) return;
    const run: Handler<PageCommand> = (argument) => latest.current?.(argument as PageCommands[C]);
    handlers.set(command, run);
    const waiting = pending.filter((request) => request.command === command);
    if (waiting.length > 0) {
      pending = pending.filter((request) => request.command !== command);
      for (const request of waiting) run(request.argument);
    }
    return () => {
      if (handlers.get(command) === run) handlers.delete(command);
    };
  }, [command, offered]);
}
