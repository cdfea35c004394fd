// Through the CLI as an admin runs it: a system that puts terminal
// escapes in its text, echoes the secrets it was sent, or answers JSON nested 100,000 deep. Each
// command is its own process, so the password must live in the keychain (scripts/with-keyring).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESCAPES, HOSTILE_TOKEN, hostileSite, UNSAFE_IN_TERMINAL } from '../../support/hostile-site.js';
import { RecordingServer } from '../../support/recording-server.js';
import { runFleetdeck } from '../../support/run-cli.js';

const haveKeyring = process.env.FLEETDECK_TEST_KEYRING === '1';
const PASSWORD = 'MARKER-HOSTILE-CLI-PASSWORD-8a2c';
const CHAP = 'MARKER-CLI-CHAP-ECHO-5';
const USER_PASSWORD = 'MARKER-CLI-USER-PASSWORD-6';
const SECRETS = [PASSWORD, CHAP, USER_PASSWORD, HOSTILE_TOKEN];

function filesUnder(dir: string): Array<[string, Buffer]> {
  return readdirSync(dir).flatMap((name): Array<[string, Buffer]> => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [[p, readFileSync(p)]];
  });
}

describe.runIf(haveKeyring)('a hostile system through the CLI', { timeout: 180_000 }, () => {
  const hostile = new RecordingServer();
  const deep = new RecordingServer();
  let dir: string;
  const cli = (args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}) => runFleetdeck([...args, '--data-dir', dir], { ...options, timeoutMs: 60_000 });
  const expectSafe = (what: string, text: string) => {
    expect(text, `${what}: raw control or direction character`).not.toMatch(UNSAFE_IN_TERMINAL);
    for (const s of SECRETS) expect(text, `${what} holds ${s}`).not.toContain(s);
  };

  beforeAll(async () => {
    hostile.responder = hostileSite();
    deep.responder = hostileSite({ deep: true });
    dir = mkdtempSync(join(tmpdir(), 'fd-hostile-'));
    for (const [name, server] of [['hostile', hostile], ['deep', deep]] as const) {
      const r = await cli(['site', 'add', name, '--url', await server.start(), '--user', 'admin', '--password-stdin'], { stdin: `${PASSWORD}\n` });
      expect(r.code, r.stderr).toBe(0);
    }
  });
  afterAll(async () => {
    await cli(['site', 'remove', 'hostile']);
    await cli(['site', 'remove', 'deep']);
    await hostile.close();
    await deep.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refresh prints systems\' text without escapes, forged lines or the echoed token; --json keeps it exact', async () => {
    const r = await cli(['refresh', '--site', 'hostile']);
    expect(r.code).toBe(3);
    expectSafe('refresh', r.stdout + r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const fields = (lines[0] as string).split('\t');
    expect(fields.slice(0, 3)).toEqual(['hostile', 'alpha', 'stale']);
    // site, system, state, the cached health roll-up, the time of the last good read, the error.
    expect(fields[3]).toMatch(/^health /);
    expect(fields).toHaveLength(6);
    // What is left of the escapes is visible junk, on the line it came with.
    expect(fields[5]).toContain(']0;pwned]52;c;ZXZpbA==[2J[2K fleetdeck: all good exe.txt31m your session Bearer [redacted] is not allowed');
    expect(r.stdout).not.toMatch(/^fleetdeck: all good/m);

    const j = await cli(['refresh', '--site', 'hostile', '--json']);
    expectSafe('refresh --json', j.stdout);
    const rows = JSON.parse(j.stdout) as Array<{ lastError: string }>;
    // Exactly what the system said (the echoed token masked), every escape kept as data.
    expect(rows[0]?.lastError).toContain(`${ESCAPES} your session Bearer [redacted] is not allowed to read this`);
  });

  it('a write whose answer or error echoes its secret leaves it in no output, log line, data file or report', async () => {
    const create = await cli(['call', 'hostile', '--system', 'alpha', 'POST /hosts/create', '--body', '{"Name":"h1"}', '--secret-env', 'ChapSecret=FD_CHAP'], { env: { FD_CHAP: CHAP } });
    expect(create.code, create.stderr).toBe(1);
    expect(create.stderr).toMatch(/^fleetdeck: the system refused: /);
    expect(create.stderr.trimEnd().split('\n')).toHaveLength(1);
    expectSafe('call (400)', create.stdout + create.stderr);
    const edit = await cli(['call', 'hostile', '--system', 'alpha', 'PUT /users/edit', '--query', 'name=bob', '--secret-stdin', 'Password'], { stdin: `${USER_PASSWORD}\n` });
    expect(edit.code, edit.stderr).toBe(0);
    // The secret holds the word PASSWORD at a piece's boundary: in this answer the key is masked too.
    expect(JSON.parse(edit.stdout)).toBe('user updated: {"[redacted]":"[redacted]"}');
    expectSafe('call (200)', edit.stdout + edit.stderr);
    expect(hostile.requests.some((q) => q.body.includes(CHAP))).toBe(true);
    expect(hostile.requests.some((q) => q.body.includes(USER_PASSWORD))).toBe(true);

    const log = await cli(['log', '--site', 'hostile']);
    expect(log.stdout.trimEnd().split('\n')).toHaveLength(2);
    expectSafe('log', log.stdout + log.stderr);
    expectSafe('log --json', (await cli(['log', '--json'])).stdout);
    const out = join(dir, 'report');
    const report = await cli(['report', 'audit', '--offline', '--format', 'json,csv,html', '--out', out]);
    expect(report.code, report.stderr).toBe(0);
    expectSafe('report', report.stdout + report.stderr);
    for (const [file, bytes] of filesUnder(dir)) for (const s of SECRETS) expect(bytes.includes(Buffer.from(s)), `${file} holds ${s}`).toBe(false);
  });

  it('an answer nested 100,000 deep is a protocol error, not a stack overflow, and not "unreachable"', async () => {
    const r = await cli(['refresh', '--site', 'deep']);
    const [site, system, state, , message] = r.stdout.trimEnd().split('\t');
    expect([site, system, state]).toEqual(['deep', '-', 'protocol-error']);
    expect(message).toMatch(/GET \/systems\/list: the answer is nested deeper than 256 levels/);
    expect(r.stdout + r.stderr).not.toMatch(/Maximum call stack|unreachable/);
    const call = await cli(['call', 'deep', 'GET /systems/list']);
    expect(call.code).toBe(4);
    expect(call.stderr).toMatch(/nested deeper than 256 levels/);
  });
});
