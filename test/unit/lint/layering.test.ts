import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The import-layering rule (CONTRIBUTING.md, "Layers"), exercised on code that breaks it. */
const eslint = new ESLint({ cwd: new URL('../../..', import.meta.url).pathname });

async function errors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import layering', () => {
  it.each([
    ['renderer/lib/x.ts', "import { runCli } from '../../main/cli/main.js';\nexport const x = runCli;", /talks to main only through renderer\/lib\/api/],
    ['renderer/lib/x.ts', "import fs from 'node:fs';\nexport const x = fs;", /no Electron or Node imports/],
    ['main/x.ts', "import { x } from '../renderer/lib/api.js';\nexport const y = x;", /never imports the renderer/],
    ['main/x.ts', "import { ipcMain } from 'electron';\nexport const y = ipcMain;", /Raw IPC lives only/],
    ['app/x.ts', "import fs from 'node:fs';\nexport const x = fs;", /no Electron or Node built-ins/],
    ['app/x.ts', "import { app } from 'electron';\nexport const x = app;", /no Electron or Node built-ins/],
    ['app/x.ts', "import { ApiClient } from '../main/client/index.js';\nexport const x = ApiClient;", /imports nothing from main/],
    ['simulator/x.ts', "import { ApiClient } from '../main/client/index.js';\nexport const x = ApiClient;", /shares only the catalog/],
  ])('%s: refuses %s', async (file, code, message) => {
    expect((await errors(file, code)).join('\n')).toMatch(message);
  });

  it('allows what the layers may use', async () => {
    expect(await errors('main/x.ts', "import { OPERATIONS } from '../app/catalog/index.js';\nimport fs from 'node:fs';\nexport const x = [OPERATIONS, fs];")).toEqual([]);
    expect(await errors('simulator/x.ts', "import { OPERATIONS } from '../app/catalog/index.js';\nexport const x = OPERATIONS;")).toEqual([]);
  });
});
