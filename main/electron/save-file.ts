import { writeFile } from 'node:fs/promises';
import type { Dialog, SaveDialogOptions } from 'electron';
import type { SaveFile } from '../ipc/handlers.js';

/**
 * Exports through Electron's save dialog: the admin chooses where, the file is written private
 * (0600: an action log names systems, users and operations). Undefined when the dialog is cancelled.
 */
export function electronSaveFile(dialog: Pick<Dialog, 'showSaveDialog'>): SaveFile {
  return async (file) => {
    const extension = file.fileName.split('.').pop() ?? '';
    const options: SaveDialogOptions = { defaultPath: file.fileName, filters: [{ name: extension.toUpperCase(), extensions: [extension] }], properties: ['createDirectory', 'showOverwriteConfirmation'] };
    const chosen = await dialog.showSaveDialog(options);
    if (chosen.canceled || !chosen.filePath) return undefined;
    await writeFile(chosen.filePath, file.content, { encoding: 'utf8', mode: 0o600 });
    return chosen.filePath;
  };
}
