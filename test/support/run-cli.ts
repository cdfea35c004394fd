import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/fleetdeck.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `fleetdeck` binary as a user would, with optional standard input. */
export function runFleetdeck(args: readonly string[], options: { stdin?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 50_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Ended by a signal (a crash, or the timeout's kill): code -1, and stderr says which.
      resolve({ code: code ?? -1, stdout, stderr: signal ? `${stderr}(ended by ${signal})\n` : stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** A `fleetdeck` runner on the data directory `dir()` names (read at each call): a minute at most, `stdin` as its input. */
export type CliOn = (args: readonly string[], stdin?: string) => Promise<CliResult>;

/** {@link runFleetdeck} with `--data-dir` set to `dir()` at each call, a minute at most. */
export function fleetdeckOn(dir: () => string): CliOn {
  return (args, stdin) => runFleetdeck([...args, '--data-dir', dir()], { ...(stdin ? { stdin } : {}), timeoutMs: 60_000 });
}

/** Saves `site` with `fleetdeck site add`, its password on standard input as an admin's script gives it. */
export function addSiteWith(cli: CliOn, site: { name: string; baseUrl: string; username: string }, password: string): Promise<CliResult> {
  return cli(['site', 'add', site.name, '--url', site.baseUrl, '--user', site.username, '--password-stdin'], `${password}\n`);
}
