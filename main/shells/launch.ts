import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startDemoFleet, type DemoFleet } from '../demo.js';
import { openRuntime, type Runtime, type RuntimeOptions } from '../runtime.js';
import { resolveDataDir } from '../store/data-dir.js';

export interface LaunchArgs {
  site?: string | undefined;
  demo: boolean;
  dataDir: string;
  port?: number | undefined;
}

/** Parses the flags both shells take: `--site NAME`, `--demo`, `--data-dir DIR`, `--port N`. */
export function parseLaunchArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): LaunchArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: false,
    options: { site: { type: 'string' }, demo: { type: 'boolean', default: false }, 'data-dir': { type: 'string' }, port: { type: 'string' } },
  });
  const port = typeof values.port === 'string' ? Number(values.port) : undefined;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) throw new Error('--port takes a port number');
  return {
    site: typeof values.site === 'string' ? values.site : undefined,
    demo: values.demo === true,
    dataDir: resolveDataDir({ flag: typeof values['data-dir'] === 'string' ? values['data-dir'] : undefined, env }),
    port,
  };
}

/** The core a window serves: the admin's sites, or the embedded demo fleet when there are none. */
export interface Launched {
  runtime: Runtime;
  demo?: DemoFleet | undefined;
  close(): Promise<void>;
}

/** Opens the admin's sites, or the demo fleet with `--demo` or when no site is configured yet. */
export async function launchCore(args: LaunchArgs, warn: (m: string) => void, extra: Pick<RuntimeOptions, 'printToPdf'> = {}): Promise<Launched> {
  if (!args.demo) {
    const runtime = await openRuntime({ dataDir: args.dataDir, warn, ...extra });
    if (runtime.sites.list().length > 0) {
      const scoped = args.site ? runtime.sites.get(args.site) : undefined;
      if (args.site && !scoped) {
        await runtime.close();
        throw new Error(`no site named "${args.site}" (see "fleetdeck site list")`);
      }
      if (!scoped) return { runtime, close: () => runtime.close() };
      await runtime.close();
      const scopedRuntime = await openRuntime({ dataDir: args.dataDir, warn, scopedSite: scoped.id, ...extra });
      return { runtime: scopedRuntime, close: () => scopedRuntime.close() };
    }
    await runtime.close();
  }
  const demo = await startDemoFleet({ scopedSite: args.site, ...extra });
  return { runtime: demo.runtime, demo, close: () => demo.close() };
}

/** Where the built renderer is (out/renderer), next to the compiled main process. */
export function rendererDir(): string {
  return fileURLToPath(new URL('../../renderer/', import.meta.url));
}
