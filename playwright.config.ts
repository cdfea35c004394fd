import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests: the real renderer bundle (out/renderer, built before this runs) in Chromium,
 * served by the browser shell on loopback over a real runtime and the simulator, all started inside
 * the test process by each spec (test/e2e/support/fleet.ts), so tests can stop sites and inject
 * faults. Nothing is built or downloaded here: Chromium is the system's.
 */
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '*.spec.ts',
  outputDir: 'test-results',
  workers: 1,
  retries: 0,
  fullyParallel: false,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
