import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../app/errors.js';
import { SiteStore } from '../../../main/store/site-store.js';
import { runFleetdeck } from '../../support/run-cli.js';

const PIN = 'ab'.repeat(32);

/** `fleetdeck site export|import`, and the machine policy as the CLI meets it (through FLEETDECK_POLICY_FILE). */
describe('fleetdeck site export and import; the machine policy', { timeout: 180_000 }, () => {
  let root: string;
  const dirs = { a: '', b: '' };
  const cli = (dir: string, args: string[], env: NodeJS.ProcessEnv = {}, stdin?: string) =>
    runFleetdeck([...args, '--data-dir', dir], { env: { FLEETDECK_KEYCHAIN: 'memory', FLEETDECK_POLICY_FILE: '', ...env }, timeoutMs: 60_000, ...(stdin !== undefined ? { stdin } : {}) });

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'fd-cli-team-'));
    dirs.a = join(root, 'a');
    dirs.b = join(root, 'b');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('exports a site list without a secret and imports it on another workstation, then names conflicts', async () => {
    expect((await cli(dirs.a, ['site', 'add', 'Lab', '--url', 'http://127.0.0.1:9', '--user', 'admin', '--group', 'Lab', '--tag', 'east', '--password-stdin'], {}, 'secret-pass\n')).code).toBe(0);
    expect((await cli(dirs.a, ['site', 'edit', 'Lab', '--interval', '900', '--max-in-flight', '2'])).code).toBe(0);
    const file = join(root, 'team.json');
    const exported = await cli(dirs.a, ['site', 'export', file]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(`exported 1 site to ${file}`);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('secret-pass');
    expect(JSON.parse(text)).toMatchObject({ format: 'fleetdeck-site-list', version: 1, sites: [{ name: 'Lab', group: 'Lab', tags: ['east'], polling: { intervalSeconds: 900, maxInFlight: 2 } }] });
    // Never over an existing file unless asked.
    expect((await cli(dirs.a, ['site', 'export', file])).stderr).toContain('exists: choose another name, or --force');

    const dry = await cli(dirs.b, ['site', 'import', file, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would add');
    expect(dry.stdout).toContain('dry run, nothing changed: 1 added');
    const store = () => new SiteStore({ dataDir: dirs.b });
    const none = store();
    expect(none.list()).toEqual([]);
    none.close();

    const done = await cli(dirs.b, ['site', 'import', file]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('1 added, 0 replaced, 0 unchanged, 0 skipped');
    const after = store();
    expect(after.get('Lab')).toMatchObject({ group: 'Lab', tags: ['east'], polling: { intervalSeconds: 900, maxInFlight: 2 } });
    after.close();

    // Moved on one workstation: the other one is told, and keeps its own unless --replace.
    expect((await cli(dirs.a, ['site', 'edit', 'Lab', '--url', 'http://127.0.0.2:9'])).code).toBe(0);
    expect((await cli(dirs.a, ['site', 'export', file, '--force'])).code).toBe(0);
    const skipped = await cli(dirs.b, ['site', 'import', file]);
    expect(skipped.stdout).toContain('conflict: same name, different URL (here http://127.0.0.1:9, in the file http://127.0.0.2:9)');
    expect(skipped.stdout).toContain('1 skipped (--replace takes the file\'s version of a conflicting site)');
    const replaced = await cli(dirs.b, ['site', 'import', file, '--replace', '--json']);
    expect(JSON.parse(replaced.stdout)).toMatchObject({ applied: true, steps: [{ action: 'replace', name: 'Lab' }] });
  });

  it('refuses a file with a secret or a malformed entry, naming each, and imports nothing', async () => {
    const bad = join(root, 'bad.json');
    const entry = { id: 'x', name: 'X', baseUrl: 'https://x.example', username: 'u', tags: [], allowHttp: false, tls: { pinSha256: PIN }, polling: { intervalSeconds: 0, paused: false, maxInFlight: 4 } };
    writeFileSync(bad, JSON.stringify({ format: 'fleetdeck-site-list', version: 1, sites: [{ ...entry, password: 'p4ss' }] }));
    const secret = await cli(dirs.b, ['site', 'import', bad]);
    expect(secret.code).toBe(EXIT.usage);
    expect(secret.stderr).toContain('sites[0].password');
    expect(secret.stderr).not.toContain('p4ss');
    writeFileSync(bad, JSON.stringify({ format: 'fleetdeck-site-list', version: 1, sites: [entry, { ...entry, id: 'y', name: 'Y', baseUrl: 'gopher://y' }, { ...entry, id: 'z', name: 'Z', polling: { ...entry.polling, maxInFlight: 0 } }] }));
    const malformed = await cli(dirs.b, ['site', 'import', bad]);
    expect(malformed.code).toBe(EXIT.usage);
    expect(malformed.stderr).toContain('2 of its 3 sites are malformed; nothing was imported');
    expect(malformed.stderr).toContain('site 2 ("Y")');
    expect(malformed.stderr).toContain('site 3 ("Z")');
    const s = new SiteStore({ dataDir: dirs.b });
    expect(s.list().map((x) => x.name)).toEqual(['Lab']);
    s.close();
  });

  it('on a read-only workstation, refuses every write command with exit 15 and the reason, and still reads', async () => {
    const policy = join(root, 'policy.json');
    writeFileSync(policy, JSON.stringify({ version: 1, readOnly: true, readOnlyReason: 'Audit workstation' }));
    chmodSync(policy, 0o644);
    const env = { FLEETDECK_POLICY_FILE: policy };
    const file = join(root, 'team.json');
    for (const args of [
      ['site', 'add', 'New', '--url', 'http://127.0.0.1:9', '--user', 'u'],
      ['site', 'edit', 'Lab', '--tag', 'x'],
      ['site', 'remove', 'Lab'],
      ['site', 'pause', 'Lab'],
      ['site', 'import', file, '--replace'],
      ['call', 'Lab', '--system', 's1', 'PUT /nodes/isns', '--body', '{"Address":"10.0.0.9"}'],
    ]) {
      const r = await cli(dirs.b, args, env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(EXIT.managed);
      expect(r.stderr, args.join(' ')).toContain('Audit workstation');
    }
    expect((await cli(dirs.b, ['site', 'list'], env)).stdout).toContain('Lab');
    expect((await cli(dirs.b, ['site', 'import', file, '--dry-run'], env)).code).toBe(0);
    expect((await cli(dirs.b, ['site', 'export', '-'], env)).code).toBe(0);
    expect((await cli(dirs.b, ['log'], env)).code).toBe(0);
  });

  it('fails closed on a malformed policy: read-only, naming file, field and reason', async () => {
    const policy = join(root, 'broken.json');
    writeFileSync(policy, JSON.stringify({ version: 1, minPollIntervalSeconds: 'often' }));
    const r = await cli(dirs.b, ['site', 'pause', 'Lab'], { FLEETDECK_POLICY_FILE: policy });
    expect(r.code).toBe(EXIT.managed);
    expect(r.stderr).toContain(`the machine policy ${policy} is refused (minPollIntervalSeconds:`);
    expect(r.stderr).toContain('this workstation is read-only until IT fixes the file');
  });
});
