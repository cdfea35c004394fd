import { runCli } from '../../main/cli/main.js';
import type { SecretStore } from '../../main/secrets/secret-store.js';
import type { CliResult } from './run-cli.js';

/**
 * Runs the `fleetdeck` command in this process (`runCli`), its output collected and no standard
 * input. Its environment is `env` alone (default: secrets in memory); `keychain` stands for the OS
 * keychain where a test shares one with its runtime.
 */
export async function runCliHere(args: readonly string[], options: { env?: NodeJS.ProcessEnv; keychain?: SecretStore } = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...args], {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readStdin: async () => '',
    env: options.env ?? { FLEETDECK_KEYCHAIN: 'memory' },
    ...(options.keychain ? { keychain: options.keychain } : {}),
  });
  return { code, stdout, stderr };
}
