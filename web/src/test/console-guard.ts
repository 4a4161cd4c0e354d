/** console.error calls of the running test; setup.ts fails the test when any remain. */
export const consoleErrors: unknown[][] = [];

/** Takes the expected console.error calls matching `pattern`, so they do not fail the test. */
export function expectConsoleError(pattern: RegExp): void {
  const index = consoleErrors.findIndex((args) => pattern.test(args.map(String).join(' ')));
  if (index === -1) throw new Error(`Expected a console.error matching ${pattern}`);
  consoleErrors.splice(index, 1);
}
