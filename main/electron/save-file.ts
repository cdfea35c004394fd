import path from 'node:path';
import type { Dialog, OpenDialogOptions, SaveDialogOptions } from 'electron';
import { SaveGrants, type SaveDialogs } from '../reports/save-grants.js';

/**
 * Main's dialogs for exports: the admin chooses where, and each answer becomes a grant to write
 * there once (`SaveGrants`). A folder answer is where a multi-file export creates its own new folder.
 */
export function electronSaveFile(dialog: Pick<Dialog, 'showSaveDialog' | 'showOpenDialog'>, grants: SaveGrants = new SaveGrants()): SaveDialogs {
  return {
    grants,
    async chooseFile({ fileName }) {
      const extension = path.extname(fileName).slice(1);
      const options: SaveDialogOptions = {
        defaultPath: fileName,
        ...(extension ? { filters: [{ name: extension.toUpperCase(), extensions: [extension] }] } : {}),
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      };
      const chosen = await dialog.showSaveDialog(options);
      return chosen.canceled || !chosen.filePath ? undefined : grants.issue('file', chosen.filePath);
    },
    async chooseFolder({ title, folderName }) {
      const options: OpenDialogOptions = { title, buttonLabel: `Export to a new folder "${folderName}" here`, properties: ['openDirectory', 'createDirectory'] };
      const chosen = await dialog.showOpenDialog(options);
      const folder = chosen.canceled ? undefined : chosen.filePaths[0];
      return folder ? grants.issue('folder', folder) : undefined;
    },
  };
}
