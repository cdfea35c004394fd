import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repo = new URL('../../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'fd-retry-wait-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A command-line process whose only pending work is the wait before a retry (a site that refused
 * the connection): the wait must keep it alive. On the deadline's unreferenced timers the process
 * ended there, with Node's exit code 13 ("unfinished top-level await"), and `fleetdeck refresh`
 * exited 13 instead of reporting the site unreachable.
 */
describe('the wait between retries', () => {
  it("keeps a process alive on the process's own timers until the retry answers", async () => {
    const script = join(dir, 'retry.mjs');
    writeFileSync(
      script,
      `import { retryRead, sleepOn } from ${JSON.stringify(pathToFileURL(join(repo, 'main/core/retry.ts')).href)};
import { SYSTEM_TIMERS } from ${JSON.stringify(pathToFileURL(join(repo, 'main/core/deadline.ts')).href)};
import { UnreachableError } from ${JSON.stringify(pathToFileURL(join(repo, 'main/client/errors.ts')).href)};
let attempts = 0;
const answer = await retryRead(async () => {
  if (attempts++ === 0) throw new UnreachableError('refused', 'ECONNREFUSED');
  return 'answered';
}, { sleep: sleepOn(SYSTEM_TIMERS), policy: { retries: 1, baseDelayMs: 200, maxDelayMs: 200 } });
process.stdout.write(answer);
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect({ code, out }).toEqual({ code: 0, out: 'answered' });
  });
});
