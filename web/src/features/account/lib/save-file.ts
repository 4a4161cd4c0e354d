/** The export's file name, as the server names it: tally-export-YYYY-MM-DD.json (UTC day). */
export function exportFileName(exportedAt: string): string {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(exportedAt)?.[0] ?? new Date().toISOString().slice(0, 10);
  return `tally-export-${day}.json`;
}

/** Has the browser save `data` as a JSON file named `fileName` (a download, not a new page). */
export function saveJsonFile(data: unknown, fileName: string): void {
  const blob = new Blob([JSON.stringify(data, null, 2) + '\n'], { type: 'application/json' });
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
