import { boundHeapGrowth } from '../heap.js';
import { deferredHandlers } from '../ipc/deferred.js';
import { startBrowserShell } from './browser-shell.js';
import { launchCore, parseLaunchArgs, rendererDir, resolveScope, type Launched } from './launch.js';

/**
 * `npm run web -- [--port N] [--demo] [--data-dir DIR] [--site NAME]`: the browser shell on loopback.
 * Prints the URL with its access token on a line of its own.
 */
export async function runWeb(argv: readonly string[]): Promise<void> {
  boundHeapGrowth();
  const args = parseLaunchArgs(argv);
  const warn = (m: string): void => void process.stderr.write(`fleetdeck: ${m}\n`);
  // From the site list alone: a --site that names no site, or a site list that cannot be read, stops here, before serving.
  const scope = resolveScope(args);
  // The demo fleet is opened first (its line comes before the URL). The admin's sites: the URL is
  // printed first and main's core loads and opens while the browser loads the page, whose calls
  // wait for it (the core's code and stores are half of main's time to serving).
  const demoCore = scope.demo ? await launchCore(args, warn, {}, scope) : undefined;
  let opened: (core: Launched) => void = () => undefined;
  let failed: (err: unknown) => void = () => undefined;
  const opening = demoCore
    ? Promise.resolve(demoCore)
    : new Promise<Launched>((resolve, reject) => {
        opened = resolve;
        failed = reject;
      });
  const handlers = opening.then((c) => c.runtime.handlers);
  // Handled where it is awaited (each call, and below); not an unhandled rejection meanwhile.
  handlers.catch(() => undefined);
  const shell = await startBrowserShell({
    handlers: deferredHandlers(handlers),
    rendererDir: rendererDir(),
    port: args.port ?? 0,
    subscribe: (emit) => {
      let off: (() => void) | undefined;
      let unsubscribed = false;
      opening.then((c) => {
        if (!unsubscribed) off = c.subscribe(emit);
      }, () => undefined);
      return () => {
        unsubscribed = true;
        off?.();
      };
    },
  });
  const stop = async (): Promise<void> => {
    await shell.close();
    await (await opening.catch(() => undefined))?.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  if (demoCore?.demo) process.stdout.write(`Fleetdeck: SIMULATED demo fleet (${demoCore.demo.simulator.manifest.sites.length} sites) served by the embedded simulator\n`);
  if (args.site) process.stdout.write(`Fleetdeck: scoped to site ${args.site}\n`);
  process.stdout.write(`Open Fleetdeck in your browser:\n${shell.url}\n`);
  if (!demoCore) launchCore(args, warn, {}, scope).then(opened, failed);
  let core: Launched;
  try {
    core = await opening;
  } catch (err) {
    await shell.close();
    throw err;
  }
  // First contact in the background: the window opens at once and fills in as systems answer.
  void core.refresh().catch(() => undefined);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runWeb(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`fleetdeck: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
