import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SaveDialogOptions, SaveDialogReturnValue } from 'electron';
import { afterEach, describe, expect, it } from 'vitest';
import { electronSaveFile } from '../../../../main/electron/save-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Electron's dialog answering as the admin would: a chosen path, or cancelled. */
function fakeDialog(answer: SaveDialogReturnValue) {
  const asked: SaveDialogOptions[] = [];
  return {
    asked,
    dialog: {
      showSaveDialog: async (options: SaveDialogOptions): Promise<SaveDialogReturnValue> => {
        asked.push(options);
        return answer;
      },
    } as unknown as Parameters<typeof electronSaveFile>[0],
  };
}

const file = { fileName: 'fleetdeck-actions-2026-03-01.csv', mimeType: 'text/csv; charset=utf-8', content: 'Seq,Operation\r\n1,POST /users/create\r\n' };

describe('exports through Electron’s save dialog', () => {
  it('suggests the file name, writes the file private where the admin chose, and answers its path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fd-save-'));
    dirs.push(dir);
    const target = join(dir, 'chosen.csv');
    const { asked, dialog } = fakeDialog({ canceled: false, filePath: target });
    expect(await electronSaveFile(dialog)(file)).toBe(target);
    expect(asked).toEqual([expect.objectContaining({ defaultPath: file.fileName, filters: [{ name: 'CSV', extensions: ['csv'] }] })]);
    expect(readFileSync(target, 'utf8')).toBe(file.content);
    if (process.platform !== 'win32') expect(statSync(target).mode & 0o777).toBe(0o600);
  });

  it('writes nothing and answers undefined when the admin cancels', async () => {
    const { dialog } = fakeDialog({ canceled: true, filePath: '' });
    expect(await electronSaveFile(dialog)(file)).toBeUndefined();
  });
});
