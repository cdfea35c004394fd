#!/usr/bin/env node
// Runs every suite — vitest (unit, integration, reliability, and the renderer's component tests) and
// the Playwright end-to-end tests in Chromium — and ends with one plain "N passed, N failed" line
// that any CI log reader understands.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'fleetdeck-test-'));
let passed = 0;
let failed = 0;
let skipped = 0;
let status = 0;
// vitest: the node project (unit, integration, reliability) and the renderer project (components in
// jsdom), in one run (vitest.config.ts).
{
  const out = join(dir, 'vitest.json');
  const r = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.status !== 0) status = r.status ?? 1;
  try {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
  } catch {
    failed += 1;
    console.error('test: vitest produced no report');
  }
}
// End to end: the built renderer in Chromium against the browser shell on the simulator.
{
  const out = join(dir, 'e2e.json');
  const r = spawnSync('npx', ['playwright', 'test', '--reporter=list,json'], {
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: out },
  });
  if (r.status !== 0) status = r.status ?? 1;
  try {
    const { stats } = JSON.parse(readFileSync(out, 'utf8'));
    passed += stats.expected + stats.flaky;
    failed += stats.unexpected;
    skipped += stats.skipped;
  } catch {
    failed += 1;
    console.error('test: the end-to-end suite produced no report');
  }
}
rmSync(dir, { recursive: true, force: true });
if (skipped > 0 && status === 0) {
  // A skipped test is a defect here: every test must run.
  console.error(`test: ${skipped} test(s) were skipped`);
  status = 1;
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(status || (failed ? 1 : 0));
