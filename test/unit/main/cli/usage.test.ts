import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../main/cli/main.js';

async function run(args: string[]): Promise<{ code: number; stderr: string }> {
  const err: string[] = [];
  const code = await runCli(args, { stdout: () => undefined, stderr: (t) => err.push(t), readStdin: async () => '', env: { FLEETDECK_KEYCHAIN: 'memory' } });
  return { code, stderr: err.join('') };
}

describe('a mistake in a command\'s options', () => {
  it('names the mistake and shows that command\'s usage, not the whole help', async () => {
    const r = await run(['alerts', '--data-dir']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Option '--data-dir <value>' argument missing");
    expect(r.stderr).toContain('fleetdeck alerts [--site NAME] [--all] [--json]');
    expect(r.stderr).toContain('"fleetdeck help" lists every command');
    // The whole help is some eighty lines; the answer to a typo fits on a screen's corner.
    expect(r.stderr).not.toContain('fleetdeck operations');
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(6);
  });

  it('keeps a command\'s continuation lines with it', async () => {
    const r = await run(['call', '--url', 'https://x.example', '--nonsense']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('fleetdeck call --url URL');
    expect(r.stderr).toContain('[--code TOTP] [--trust SHA256]');
    expect(r.stderr).not.toContain('fleetdeck site add');
  });
});
