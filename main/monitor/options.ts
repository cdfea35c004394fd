import { parseArgs } from 'node:util';
import { InputError } from '../../app/errors.js';

/** What `fleetdeck monitor` was asked for. */
export interface MonitorArgs {
  dataDir?: string | undefined;
  /** `ADDR:PORT` (`[::1]:9469` for IPv6) where `/metrics` is served; none: no endpoint. */
  metricsListen?: string | undefined;
  /** The Prometheus exporter web configuration (TLS, basic auth) of the metrics endpoint. */
  metricsWebConfig?: string | undefined;
  /** Site passwords for a service account (see `secrets.ts`). */
  secretsFile?: string | undefined;
}

/**
 * Parses `fleetdeck monitor`'s arguments.
 * @throws InputError for an unknown option, a positional argument, a listen address that is not
 *   `HOST:PORT` with a port in 0–65535 (0: a free one, logged at start), or `--metrics-web-config` without `--metrics-listen`.
 */
export function parseMonitorArgs(args: readonly string[]): MonitorArgs {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        'data-dir': { type: 'string' },
        'metrics-listen': { type: 'string' },
        'metrics-web-config': { type: 'string' },
        'secrets-file': { type: 'string' },
      },
    }) as { values: Record<string, string | undefined> });
  } catch (err) {
    throw new InputError(`monitor: ${(err as Error).message}`);
  }
  const listen = values['metrics-listen'];
  if (listen !== undefined) checkListen(listen);
  if (values['metrics-web-config'] !== undefined && listen === undefined) throw new InputError('monitor: --metrics-web-config configures the endpoint of --metrics-listen, which is not given');
  for (const name of ['data-dir', 'metrics-web-config', 'secrets-file'] as const) {
    if (values[name] !== undefined && values[name].trim() === '') throw new InputError(`monitor: --${name} needs a path`);
  }
  return { dataDir: values['data-dir'], metricsListen: listen, metricsWebConfig: values['metrics-web-config'], secretsFile: values['secrets-file'] };
}

/** `HOST:PORT`, `[IPv6]:PORT`: the forms Prometheus exporters take for `--web.listen-address`. */
function checkListen(listen: string): void {
  const m = /^(\[[0-9a-fA-F:.%\w]+\]|[^:[\]\s]*):(\d{1,5})$/.exec(listen);
  const port = m ? Number(m[2]) : NaN;
  if (!m || !(port >= 0 && port <= 65535)) {
    throw new InputError(`monitor: --metrics-listen takes ADDR:PORT (127.0.0.1:9469, [::1]:9469, :9469 for every address), not "${listen}"`);
  }
}
