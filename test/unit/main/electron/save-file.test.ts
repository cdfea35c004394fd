import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenDialogOptions, OpenDialogReturnValue, SaveDialogOptions, SaveDialogReturnValue } from 'electron';
import { afterEach, describe, expect, it } from 'vitest';
import { electronSaveFile } from '../../../../main/electron/save-file.js';
import { SaveGrants, GRANT_TTL_MS } from '../../../../main/reports/save-grants.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fd-save-'));
  dirs.push(dir);
  return dir;
}

/** Electron's dialogs answering as the admin would: a chosen path, or cancelled. */
function fakeDialog(save: SaveDialogReturnValue, open: OpenDialogReturnValue = { canceled: true, filePaths: [] }) {
  const asked: Array<SaveDialogOptions | OpenDialogOptions> = [];
  return {
    asked,
    dialog: {
      showSaveDialog: async (options: SaveDialogOptions) => (asked.push(options), save),
      showOpenDialog: async (options: OpenDialogOptions) => (asked.push(options), open),
    } as unknown as Parameters<typeof electronSaveFile>[0],
  };
}

const content = 'Seq,Operation\r\n1,POST /users/create\r\n';

describe('exports through main’s dialogs', () => {
  it('suggests the file name, and the answer grants one private write where the admin chose', async () => {
    const target = join(tempDir(), 'chosen.csv');
    const { asked, dialog } = fakeDialog({ canceled: false, filePath: target });
    const dialogs = electronSaveFile(dialog);
    const grant = await dialogs.chooseFile({ fileName: 'fleetdeck-actions.csv' });
    expect(asked).toEqual([expect.objectContaining({ defaultPath: 'fleetdeck-actions.csv', filters: [{ name: 'CSV', extensions: ['csv'] }] })]);
    expect(grant).toMatchObject({ kind: 'file', path: target });
    expect(await dialogs.grants.writeFile(grant!, content)).toBe(target);
    expect(readFileSync(target, 'utf8')).toBe(content);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    // Used once: the same answer cannot be written to again.
    await expect(dialogs.grants.writeFile(grant!, 'again')).rejects.toMatchObject({ code: 'validation', message: expect.stringMatching(/save dialog/) });
    expect(readFileSync(target, 'utf8')).toBe(content);
  });

  it('answers nothing to write when the admin cancels', async () => {
    const { dialog } = fakeDialog({ canceled: true, filePath: '' });
    expect(await electronSaveFile(dialog).chooseFile({ fileName: 'x.csv' })).toBeUndefined();
  });

  it('refuses a grant it did not issue (a path named elsewhere), one of another kind, and one answered too long ago', async () => {
    let now = 1_000;
    const grants = new SaveGrants(() => now);
    const elsewhere = new SaveGrants();
    const target = join(tempDir(), 'x.desktop');
    await expect(grants.writeFile(elsewhere.issue('file', target), 'x')).rejects.toMatchObject({ code: 'validation' });
    await expect(grants.writeFile({ kind: 'file', path: target }, 'x')).rejects.toMatchObject({ code: 'validation' });
    expect(() => grants.take(grants.issue('folder', target), 'file')).toThrow(/save dialog/);
    const late = grants.issue('file', target);
    now += GRANT_TTL_MS;
    await expect(grants.writeFile(late, 'x')).rejects.toMatchObject({ message: expect.stringMatching(/too long ago/) });
    expect(existsSync(target)).toBe(false);
  });

  it('a folder answer grants the folder once, shown as a folder dialog', async () => {
    const parent = tempDir();
    const { asked, dialog } = fakeDialog({ canceled: true, filePath: '' }, { canceled: false, filePaths: [parent] });
    const dialogs = electronSaveFile(dialog);
    const grant = await dialogs.chooseFolder({ title: 'Export report 3', folderName: 'fleetdeck-report-3' });
    expect(asked).toEqual([expect.objectContaining({ properties: expect.arrayContaining(['openDirectory', 'createDirectory']) })]);
    expect(dialogs.grants.take(grant!, 'folder')).toBe(parent);
    expect(() => dialogs.grants.take(grant!, 'folder')).toThrow();
    expect(readdirSync(parent)).toEqual([]);
  });
});
