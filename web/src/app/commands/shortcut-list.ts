import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * Every keyboard shortcut of the app, as the `?` sheet lists them (docs/product.md, Keyboard).
 * The global ones are handled by use-shortcuts.ts; the row keys by the /todos list itself.
 */
export const SHORTCUT_SECTIONS: readonly {
  title: MessageDescriptor;
  shortcuts: readonly { keys: readonly string[][]; action: MessageDescriptor }[];
}[] = [
  {
    title: msg`Anywhere`,
    shortcuts: [
      {
        keys: [
          ['Ctrl', 'K'],
          ['⌘', 'K'],
        ],
        action: msg`Open the command palette`,
      },
      { keys: [['n']], action: msg`New todo` },
      { keys: [['/']], action: msg`Search todos` },
      { keys: [['g', 't']], action: msg`Go to Todos` },
      { keys: [['g', 's']], action: msg`Go to Statistics` },
      { keys: [['g', 'g']], action: msg`Go to Groups` },
      { keys: [['?']], action: msg`Show these shortcuts` },
      {
        keys: [
          ['Ctrl', 'Z'],
          ['⌘', 'Z'],
        ],
        action: msg`Undo the last change`,
      },
    ],
  },
  {
    title: msg`In the todo list`,
    shortcuts: [
      { keys: [['j'], ['↓']], action: msg`Next todo` },
      { keys: [['k'], ['↑']], action: msg`Previous todo` },
      { keys: [['Enter']], action: msg`Open the details` },
      { keys: [['Space']], action: msg`Complete or reopen` },
      { keys: [['e']], action: msg`Edit` },
      { keys: [['Delete'], ['#']], action: msg`Delete` },
      { keys: [['x']], action: msg`Select or unselect` },
    ],
  },
  {
    title: msg`In the search box`,
    shortcuts: [{ keys: [['Esc']], action: msg`Clear the search and leave the box` }],
  },
];
