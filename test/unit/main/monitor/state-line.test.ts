import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { stateLine } from '../../../../main/monitor/monitor.js';

describe("the monitor's line for a system waiting for an admin", () => {
  it('names a system whose name is a shell command as a quoted word: the command it suggests runs nothing of the name', () => {
    const system = '$(touch /tmp/fleetdeck-pwned)";`id`';
    const line = stateLine('paris', 'ok', { siteId: 'paris', system, state: 'login-required', lastError: 'paris/x: two-factor authentication is on: a code is required' });
    const command = /not polled until then: (fleetdeck login .* --code CODE)\)$/.exec(line)?.[1];
    expect(command).toBe(`fleetdeck login paris --system '${system}' --code CODE`);
    // What a shell makes of it, pasted: the name as one argument, expanded nowhere.
    const args = execFileSync('sh', ['-c', `printf '%s\\n' ${(command ?? '').replace('fleetdeck login ', '')}`], { encoding: 'utf8' });
    expect(args.split('\n')).toEqual(['paris', '--system', system, '--code', 'CODE', '']);
  });
});
