/** The export's file name, as the server names it: tally-export-YYYY-MM-DD.json (UTC day). */
export function exportFileName(exportedAt: string): string {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(exportedAt)?.[0] ?? new Date().toISOString().slice(0, 10);
  return `tally-export-${day}.json`;
}

/** Has the browser save `data` as a JSON file named `fileName` (a download, not a new page). */
export function saveJsonFile(data: unknown, fileName: string): void {
  saveTextFile(JSON.stringify(data, null, 2) + '\n', fileName, 'application/json');
}

/** Has the browser save `text` as a file named `fileName` of the given type. */
export function saveTextFile(text: string, fileName: string, type: string): void {
  const blob = new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // The download has taken the Blob by now; give the browser a moment before letting it go.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
