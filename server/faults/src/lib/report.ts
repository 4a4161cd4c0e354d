// What the suites found: figures per suite and database, and every failed check. run.ts writes
// both to .reports/faults.json, which scripts/test.mjs reads.

/** One suite's figures, as they appear in the report (undefined ones are left out). */
export type SuiteResult = Record<string, number | null | undefined>;

export const results: Record<string, SuiteResult> = {};
export const failures: string[] = [];

export function check(ok: boolean, message: string): void {
  if (!ok) {
    failures.push(message);
    console.error(`  FAIL ${message}`);
  }
}
