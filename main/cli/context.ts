import { resolveDataDir } from '../store/data-dir.js';
import { openRuntime, type Runtime } from '../runtime.js';
import type { CliIo } from './io.js';

/** The option of every command that opens the core: `--data-dir DIR`, handed to {@link withRuntime}. */
export const DATA_DIR = { 'data-dir': { type: 'string' } } as const;

/**
 * Opens the core for one CLI command on the chosen data directory; closes it afterwards. A command
 * that signs in to no system (`secrets: false`: the action log, alerts, the site and report lists) leaves the keychain alone, so it
 * neither waits for it nor warns that it is unusable.
 */
export async function withRuntime<T>(io: CliIo, dataDirFlag: string | undefined, task: (rt: Runtime) => Promise<T>, options: { secrets?: boolean } = {}): Promise<T> {
  const dataDir = resolveDataDir({ flag: dataDirFlag, env: io.env });
  const rt = await openRuntime({
    dataDir,
    memorySecrets: options.secrets === false || io.env.FLEETDECK_KEYCHAIN === 'memory',
    ...(io.keychain && options.secrets !== false ? { keychain: io.keychain } : {}),
    warn: (m) => io.stderr(`fleetdeck: ${m}\n`),
    // A command never searches the fleet: no index read from the cache while it runs.
    searchIndex: false,
    // A command is short-lived: its records wait in the outbox for the app, a monitor or `log forward --flush`.
    forward: false,
  });
  try {
    return await task(rt);
  } finally {
    await rt.close();
  }
}
