import { defineConfig } from '@playwright/test';

/**
 * `npm run test:electron` (scripts/test-electron.mjs): the built app in the real Electron runtime,
 * launched by Playwright's Electron launcher. Kept apart from the end-to-end tests of `npm test`,
 * which run in Chromium against the browser shell where no Electron runtime can be had.
 */
export default defineConfig({
  testDir: 'test/electron',
  testMatch: '*.spec.ts',
  outputDir: 'test-results/electron',
  workers: 1,
  retries: 0,
  fullyParallel: false,
  forbidOnly: true,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  use: { trace: 'retain-on-failure', screenshot: 'only-on-failure' },
});
