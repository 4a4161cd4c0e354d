/**
 * Every keyboard shortcut of the app, as the `?` sheet lists them (docs/product.md, Keyboard).
 * The global ones are handled by use-shortcuts.ts; the row keys by the /todos list itself.
 */
export const SHORTCUT_SECTIONS: readonly {
  title: string;
  shortcuts: readonly { keys: readonly string[][]; action: string }[];
}[] = [
  {
    title: 'Anywhere',
    shortcuts: [
      {
        keys: [
          ['Ctrl', 'K'],
          ['⌘', 'K'],
        ],
        action: 'Open the command palette',
      },
      { keys: [['n']], action: 'New todo' },
      { keys: [['/']], action: 'Search todos' },
      { keys: [['g', 't']], action: 'Go to Todos' },
      { keys: [['g', 's']], action: 'Go to Statistics' },
      { keys: [['g', 'g']], action: 'Go to Groups' },
      { keys: [['?']], action: 'Show these shortcuts' },
      {
        keys: [
          ['Ctrl', 'Z'],
          ['⌘', 'Z'],
        ],
        action: 'Undo the last change',
      },
    ],
  },
  {
    title: 'In the todo list',
    shortcuts: [
      { keys: [['j'], ['↓']], action: 'Next todo' },
      { keys: [['k'], ['↑']], action: 'Previous todo' },
      { keys: [['Enter']], action: 'Open the details' },
      { keys: [['Space']], action: 'Complete or reopen' },
      { keys: [['e']], action: 'Edit' },
      { keys: [['Delete'], ['#']], action: 'Delete' },
      { keys: [['x']], action: 'Select or unselect' },
    ],
  },
  {
    title: 'In the search box',
    shortcuts: [{ keys: [['Esc']], action: 'Clear the search and leave the box' }],
  },
];
