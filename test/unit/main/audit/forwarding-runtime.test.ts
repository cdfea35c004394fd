// The runtime's forwarding as a window and the CLI use it: the setting, its record in the action
// log, the organisation's policy over the admin, and a window scoped to one site.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORWARD_SETTINGS_FILE } from '../../../../main/audit/forward-settings.js';
import { dispatch } from '../../../../main/ipc/handlers.js';
import { policyForward, type Runtime } from '../../../../main/runtime.js';
import { useRuntimes } from '../../../support/runtimes.js';
import { useTempDirs } from '../store/temp-dir.js';
import { runCliHere } from '../../../support/run-cli-here.js';

const tempDir = useTempDirs();
const open = useRuntimes();

async function call(rt: Runtime, channel: string, payload: unknown = {}): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  return (await dispatch(rt.handlers, channel, payload)) as { ok: boolean; value?: unknown; error?: { code: string; message: string } };
}

const cli = (args: string[]) => runCliHere(args);

describe('syslog forwarding in the runtime', () => {
  it('sets the target from a window, records the change in the action log, and turns it off again', async () => {
    const dir = tempDir();
    const rt = await open(dir);
    const set = await call(rt, 'forward:set', { setting: { target: 'tls://127.0.0.1:6514', pinSha256: 'AB'.repeat(32) } });
    expect(set.ok).toBe(true);
    expect(set.value).toMatchObject({ target: 'tls://127.0.0.1:6514', trust: 'pinned', pinSha256: 'ab'.repeat(32), managed: false });
    expect(fs.statSync(path.join(dir, FORWARD_SETTINGS_FILE)).mode & 0o777).toBe(0o600);
    const bad = await call(rt, 'forward:set', { setting: { target: 'udp://127.0.0.1:514' } });
    expect(bad.error?.message).toMatch(/not a syslog target/);
    await call(rt, 'forward:set', { setting: null });
    expect(((await call(rt, 'forward:status')).value as { state: string; target?: string }).target).toBeUndefined();
    const changes = rt.actionLog.list().map((r) => [r.operation, r.params]);
    expect(changes).toEqual([
      ['syslog forwarding on', { target: 'tls://127.0.0.1:6514', trust: { pinSha256: 'ab'.repeat(32) } }],
      ['syslog forwarding off', {}],
    ]);
    // Both changes wait in the outbox like every other record.
    expect(((await call(rt, 'forward:status')).value as { queued: number }).queued).toBe(2);
  });

  it('shows the policy target as managed and refuses to change it', async () => {
    const dir = tempDir();
    const rt = await open(dir, { forwardPolicy: { target: 'tcp://127.0.0.1:1' } });
    expect((await call(rt, 'forward:status')).value).toMatchObject({ target: 'tcp://127.0.0.1:1', managed: true });
    const refused = await call(rt, 'forward:set', { setting: null });
    expect(refused.error?.message).toMatch(/managed by your organisation/);
    expect(fs.existsSync(path.join(dir, FORWARD_SETTINGS_FILE))).toBe(false);
  });

  it('takes the machine policy\'s collector (TLS unless it says tcp) and refuses a change with exit 15', async () => {
    const policy = { file: '/etc/fleetdeck/policy.json', status: 'applied' as const, policy: { syslog: { target: 'logs.example:6514', pinSha256: 'cd'.repeat(32) } }, problems: [], notes: [] };
    const rt = await open(tempDir(), { policy });
    expect((await call(rt, 'forward:status')).value).toMatchObject({ target: 'tls://logs.example:6514', managed: true });
    const refused = await call(rt, 'forward:set', { setting: { target: 'tcp://127.0.0.1:514' } });
    expect(refused.error?.code).toBe('managed');
  });

  it('keeps forwarding off, and says why, when the policy\'s collector cannot be used', () => {
    const warnings: string[] = [];
    expect(policyForward({ target: 'logs.example:6514', transport: 'tcp', caBundlePem: 'not a certificate' }, (m) => warnings.push(m))).toBe('off');
    expect(warnings.join('\n')).toMatch(/syslog collector cannot be used, forwarding is off/);
    expect(policyForward(undefined, (m) => warnings.push(m))).toBeUndefined();
  });

  it('refuses a change from a window scoped to one site', async () => {
    const rt = await open(tempDir(), { scopedSite: 'paris' });
    const refused = await call(rt, 'forward:set', { setting: { target: 'tcp://127.0.0.1:514' } });
    expect(refused.error?.message).toMatch(/scoped to site "paris"/);
  });

  it('log forward and forward-status: set, shown, refused with a clear error, and a damaged setting named', async () => {
    const dir = tempDir();
    expect((await cli(['log', 'forward', '--to', 'tcp://127.0.0.1:5514', '--data-dir', dir])).code).toBe(0);
    const status = await cli(['log', 'forward-status', '--data-dir', dir]);
    expect(status.stdout).toMatch(/target: +tcp:\/\/127\.0\.0\.1:5514/);
    expect(status.stdout).toMatch(/queued: +1 record/);
    expect(status.stdout).toMatch(/no Fleetdeck process forwards now/);
    const wrong = await cli(['log', 'forward', '--to', 'tcp://127.0.0.1:5514', '--trust', 'ab'.repeat(32), '--data-dir', dir]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/tls:\/\/ targets only/);
    expect((await cli(['log', 'forward', '--off', '--to', 'tcp://h:1', '--data-dir', dir])).code).toBe(2);
    fs.writeFileSync(path.join(dir, FORWARD_SETTINGS_FILE), '{"target": 5}');
    const damaged = await cli(['log', 'forward-status', '--json', '--data-dir', dir]);
    expect(damaged.code).not.toBe(0);
    expect((JSON.parse(damaged.stdout) as { lastError: string }).lastError).toMatch(/syslog-forward\.json.*not valid/);
  });
});
