import { startBrowserShell } from './browser-shell.js';
import { launchCore, parseLaunchArgs, rendererDir } from './launch.js';

/**
 * `npm run web -- [--port N] [--demo] [--data-dir DIR] [--site NAME]`: the browser shell on loopback.
 * Prints the URL with its access token on a line of its own.
 */
export async function runWeb(argv: readonly string[]): Promise<void> {
  const args = parseLaunchArgs(argv);
  const core = await launchCore(args, (m) => process.stderr.write(`fleetdeck: ${m}\n`));
  const { runtime } = core;
  const shell = await startBrowserShell({
    handlers: runtime.handlers,
    rendererDir: rendererDir(),
    port: args.port ?? 0,
    subscribe: (emit) => core.subscribe(emit),
  });
  if (core.demo) process.stdout.write(`Fleetdeck: SIMULATED demo fleet (${core.demo.simulator.manifest.sites.length} sites) served by the embedded simulator\n`);
  if (args.site) process.stdout.write(`Fleetdeck: scoped to site ${args.site}\n`);
  process.stdout.write(`Open Fleetdeck in your browser:\n${shell.url}\n`);
  // First contact in the background: the window opens at once and fills in as systems answer.
  void core.refresh().catch(() => undefined);
  const stop = async (): Promise<void> => {
    await shell.close();
    await core.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runWeb(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`fleetdeck: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
