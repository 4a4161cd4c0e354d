/** Has the browser save `text` as a file named `fileName` of the given type (a download, not a new page). */
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
