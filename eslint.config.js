// Lint holds the walls between layers (CONTRIBUTING.md, "Layers"): app runs anywhere; main and renderer never
// import each other; the simulator knows only app. Raw Electron IPC lives in two files.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';

const NODE_BUILTINS = ['node:*', 'fs', 'fs/*', 'path', 'os', 'crypto', 'http', 'https', 'net', 'tls', 'child_process', 'url', 'util', 'stream', 'events', 'zlib', 'worker_threads'];
const layer = (group, message) => ({ group, message });
const restrict = (...patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'docs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] }, globals: { ...globals.browser } },
  },
  {
    files: ['app/**/*.ts'],
    rules: {
      ...restrict(
        layer(['**/main/**', '**/renderer/**', '**/simulator/**'], 'app/ runs in every process: it imports nothing from main, renderer or simulator.'),
        layer(['electron', 'electron/*', ...NODE_BUILTINS], 'app/ runs in every process: no Electron or Node built-ins.'),
      ),
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/electron/ipc-registration.ts', 'main/electron/preload.ts'],
    rules: {
      ...restrict(
        layer(['**/renderer/**'], 'main/ never imports the renderer: they meet only through the IPC contract in app/.'),
        { group: ['electron'], importNames: ['ipcMain', 'ipcRenderer'], message: 'Raw IPC lives only in main/electron/ipc-registration.ts and main/electron/preload.ts.' },
      ),
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.svelte'],
    rules: {
      ...restrict(
        layer(['**/main/**', '**/simulator/**'], 'renderer/ talks to main only through renderer/lib/api.'),
        layer(['electron', 'electron/*', ...NODE_BUILTINS], 'renderer/ runs in a sandboxed page: no Electron or Node imports.'),
      ),
    },
  },
  {
    files: ['simulator/**/*.ts'],
    rules: {
      ...restrict(layer(['**/main/**', '**/renderer/**'], 'simulator/ shares only the catalog in app/.')),
    },
  },
);
