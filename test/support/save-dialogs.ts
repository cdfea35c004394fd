import { SaveGrants, type SaveDialogs } from '../../main/reports/save-grants.js';

/**
 * Main's dialogs as an admin answers them: each call takes the next answer (a path, or undefined
 * for Cancel) and issues a real grant, so what main writes lands on disk as it would in Electron.
 */
export function answeringDialogs(answers: Array<string | undefined>, grants: SaveGrants = new SaveGrants()): SaveDialogs & { asked: Array<{ kind: 'file' | 'folder'; name: string }> } {
  const asked: Array<{ kind: 'file' | 'folder'; name: string }> = [];
  const next = (kind: 'file' | 'folder', name: string) => {
    asked.push({ kind, name });
    const answer = answers.shift();
    return Promise.resolve(answer === undefined ? undefined : grants.issue(kind, answer));
  };
  return {
    grants,
    asked,
    chooseFile: ({ fileName }) => next('file', fileName),
    chooseFolder: ({ folderName }) => next('folder', folderName),
  };
}
