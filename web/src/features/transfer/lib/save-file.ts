import { saveTextFile } from '#web/lib/save-file';

/** The export's file name, as the server names it: tally-export-YYYY-MM-DD.json (UTC day). */
export function exportFileName(exportedAt: string): string {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(exportedAt)?.[0] ?? new Date().toISOString().slice(0, 10);
  return `tally-export-${day}.json`;
}

/** Has the browser save `data` as a JSON file named `fileName` (a download, not a new page). */
export function saveJsonFile(data: unknown, fileName: string): void {
  saveTextFile(JSON.stringify(data, null, 2) + '\n', fileName, 'application/json');
}
