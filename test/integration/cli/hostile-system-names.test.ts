// `fleetdeck login` against a site that names its systems to forge lines or to make the command it
// suggests run something: the names are one field each, and a quoted word in the command.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, RecordingServer } from '../../support/recording-server.js';
import { runFleetdeck } from '../../support/run-cli.js';

const haveKeyring = process.env.FLEETDECK_TEST_KEYRING === '1';
/** The code goes to the site's first login (to list its systems): both then need a code of their own. */
const FORGER = 'alpha\r\nlogged in to lab: every system';
const RUNNER = '$(touch /tmp/fleetdeck-pwned)`id`';

describe.runIf(haveKeyring)('system names made to forge output or run a pasted command', { timeout: 120_000 }, () => {
  const server = new RecordingServer();
  let dir: string;
  const cli = (args: string[], stdin?: string) => runFleetdeck([...args, '--data-dir', dir], { ...(stdin !== undefined ? { stdin } : {}), timeoutMs: 60_000 });

  beforeAll(async () => {
    const used = new Set<string>();
    server.responder = (req, res) => {
      const path = req.url.split('?')[0] ?? '';
      if (path.endsWith('/login')) {
        const code = (JSON.parse(req.body) as { TwoFactorAuthenticationToken?: string }).TwoFactorAuthenticationToken;
        // A code is accepted once; without one, a second factor is asked for.
        if (code && !used.has(code)) {
          used.add(code);
          return json(res, 200, { SessionToken: `tok-${used.size}`, Status: 'Ok', UserEmailAddress: '', Details: '' });
        }
        return json(res, 401, 'two-factor authentication code required');
      }
      if (path.endsWith('/systems/select')) return json(res, 200, 'selected');
      if (path.endsWith('/systems/list')) return json(res, 200, { Systems: [{ Name: RUNNER }, { Name: FORGER }] });
      return json(res, 200, []);
    };
    dir = mkdtempSync(join(tmpdir(), 'fd-hostile-names-'));
    const r = await cli(['site', 'add', 'lab', '--url', await server.start(), '--user', 'admin', '--password-stdin'], 'pw-of-lab\n');
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(async () => {
    await cli(['site', 'remove', 'lab']);
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the names without the lines they forge, and the command for the next code with the name quoted', async () => {
    const r = await cli(['login', 'lab', '--code', '123456']);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stdout).toBe('logged in to lab\n');
    const lines = r.stderr.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(`fleetdeck: ${RUNNER}, alpha logged in to lab: every system each need a two-factor code of their own (a code is accepted once). When your authenticator shows the next code, run:`);
    const command = /^ {2}(fleetdeck login .*)$/m.exec(r.stderr)?.[1] ?? '';
    expect(command).toBe(`fleetdeck login lab --system '${RUNNER}' --code NEXT_CODE`);
    // Pasted into a shell, the name is one argument, expanded nowhere.
    const args = execFileSync('sh', ['-c', `printf '%s\\n' ${command.replace('fleetdeck login ', '')}`], { encoding: 'utf8' });
    expect(args.split('\n')).toEqual(['lab', '--system', RUNNER, '--code', 'NEXT_CODE', '']);
  });
});
