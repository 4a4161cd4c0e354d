import { afterEach, describe, expect, it, vi } from 'vitest';
import { exportFileName, saveJsonFile } from './save-file';

/** jsdom's Blob has no text(): read it as the browser's FileReader would. */
function readBlob(blob: Blob | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!blob) return reject(new Error('Nothing was saved'));
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Unreadable Blob'));
    reader.readAsText(blob);
  });
}

describe('exportFileName', () => {
  it('names the file after the UTC day of the export, as the server does', () => {
    expect(exportFileName('2026-03-04T23:59:59.000Z')).toBe('tally-export-2026-03-04.json');
  });
});

describe('saveJsonFile', () => {
  // jsdom has no object URLs: the test puts its own in and takes them out again.
  const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  afterEach(() => {
    URL.createObjectURL = original.create;
    URL.revokeObjectURL = original.revoke;
  });

  it('clicks a download link to a JSON Blob, then lets the Blob go', async () => {
    vi.useFakeTimers();
    let saved: Blob | undefined;
    const createObjectURL = vi.fn((blob: Blob) => {
      saved = blob;
      return 'blob:tally/1';
    });
    const revokeObjectURL = vi.fn();
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicks.push(this);
    });

    saveJsonFile({ version: 1 }, 'tally-export-2026-03-04.json');

    expect(clicks).toHaveLength(1);
    expect(clicks[0]?.download).toBe('tally-export-2026-03-04.json');
    expect(clicks[0]?.href).toBe('blob:tally/1');
    expect(clicks[0]?.isConnected).toBe(false);
    expect(saved?.type).toBe('application/json');
    expect(revokeObjectURL).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:tally/1');
    vi.useRealTimers();
    expect(JSON.parse(await readBlob(saved))).toEqual({ version: 1 });
  });
});
