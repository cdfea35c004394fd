#!/usr/bin/env node
import { rename, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DEFAULTS, DIALECT_NAMES, SimClock, parseDialects, startSimulator } from './index.js';
import type { SimulatorOptions } from './index.js';

const USAGE = `Usage: fleetdeck-simulator [options]
  --host H          interface to bind (default 127.0.0.1)
  --port P          first site port; sites use P, P+1, ... (default 0: free ports)
  --sites N         management endpoints (default ${DEFAULTS.sites})
  --systems M       systems per site (default ${DEFAULTS.systems})
  --seed S          seed of the generated state (default "${DEFAULTS.seed}")
  --tls             HTTPS with a self-signed certificate per site
  --latency-ms X    latency added to every response
  --username U      administrator name (default ${DEFAULTS.username})
  --password P      administrator password (default ${DEFAULTS.password})
  --manifest FILE   write the manifest JSON here (printed to stdout otherwise)
  --control-port C  control server port (default: P+N when --port is given, else free)
  --start-time T    simulated time starts at this ISO 8601 instant (default: now)
  --demo            3 sites x 3 systems with one degrading drive, one replication pair and two
                    fixable compliance drifts (a support tunnel open, mail certificates unchecked)
  --dialect A,B     answer like real systems that differ from our reading of the document
                    (${DIALECT_NAMES.join(', ')}; see simulator/README.md, "Dialects")
  --help`;

function int(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new RangeError(`--${name} must be a non-negative integer`);
  return Number(text);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      sites: { type: 'string' },
      systems: { type: 'string' },
      seed: { type: 'string' },
      tls: { type: 'boolean' },
      'latency-ms': { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      manifest: { type: 'string' },
      'control-port': { type: 'string' },
      'start-time': { type: 'string' },
      demo: { type: 'boolean' },
      dialect: { type: 'string', multiple: true },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const options: SimulatorOptions = { tls: values.tls ?? false, demo: values.demo ?? false };
  if (values.host !== undefined) options.host = values.host;
  const port = int('port', values.port);
  if (port !== undefined) options.port = port;
  const sites = int('sites', values.sites);
  if (sites !== undefined) options.sites = sites;
  const systems = int('systems', values.systems);
  if (systems !== undefined) options.systems = systems;
  if (values.seed !== undefined) options.seed = values.seed;
  const latency = int('latency-ms', values['latency-ms']);
  if (latency !== undefined) options.latencyMs = latency;
  if (values.username !== undefined) options.username = values.username;
  if (values.password !== undefined) options.password = values.password;
  const controlPort = int('control-port', values['control-port']);
  if (controlPort !== undefined) options.controlPort = controlPort;
  else if (port !== undefined && port > 0) options.controlPort = port + (options.demo ? 3 : (sites ?? DEFAULTS.sites));
  if (values['start-time'] !== undefined) {
    const at = Date.parse(values['start-time']);
    if (Number.isNaN(at)) throw new RangeError('--start-time must be an ISO 8601 date-time');
    options.clock = SimClock.startingAt(at);
  }
  if (values.dialect !== undefined) options.dialects = parseDialects(values.dialect.join(','));
  if (options.demo && (sites !== undefined || systems !== undefined)) process.stderr.write('--demo always runs 3 sites x 3 systems; --sites/--systems ignored\n');

  const handle = await startSimulator(options);
  const manifest = handle.manifest;
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  if (values.manifest) {
    // Write then rename, so a watcher never reads a half-written manifest.
    const tmp = `${values.manifest}.${process.pid}.tmp`;
    await writeFile(tmp, text, { mode: 0o600 });
    await rename(tmp, values.manifest);
  }
  const urls = manifest.sites.map((s) => `${s.name}=${s.baseUrl}`).join(' ');
  process.stdout.write(`fleetdeck simulator ready: ${urls} control=${manifest.control}\n`);
  if (!values.manifest) process.stdout.write(text);

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    process.stderr.write(`simulator: ${signal}, closing\n`);
    handle.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((e: unknown) => {
  process.stderr.write(`simulator: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
