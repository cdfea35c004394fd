import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** rsyslogd's path, or an error saying how to install it: the tests that need it fail loudly without it. */
export function rsyslogd(): string {
  for (const p of ['/usr/sbin/rsyslogd', '/sbin/rsyslogd']) if (fs.existsSync(p)) return p;
  const found = spawnSync('sh', ['-c', 'command -v rsyslogd'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  throw new Error('rsyslogd is not installed: these tests need the real collector (Debian: apt-get install rsyslog rsyslog-gnutls; scripts/setup installs them)');
}

/** A free loopback TCP port (the collector is restarted on the same one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface Collector {
  port: number;
  /** The file rsyslog writes every received message to, one per line (`%rawmsg%`). */
  file: string;
  /** Starts rsyslogd (again) and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops it (SIGTERM; SIGKILL: a crash) and waits for it to exit. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** The lines written so far. */
  lines(): string[];
}

/**
 * A real rsyslogd as a plain process on a loopback port: imtcp (octet-counted framing is on by
 * default), optionally TLS through gtls with the given certificate, writing what it receives with
 * the README's template.
 */
export async function rsyslogCollector(dir: string, options: { tls?: { cert: string; key: string } } = {}): Promise<Collector> {
  const bin = rsyslogd();
  const port = await freePort();
  const file = path.join(dir, 'collector.log');
  const conf = path.join(dir, 'rsyslog.conf');
  const work = path.join(dir, 'work');
  fs.mkdirSync(work, { recursive: true });
  let tlsGlobal = '';
  let tlsModule = '';
  if (options.tls) {
    fs.writeFileSync(path.join(dir, 'cert.pem'), options.tls.cert);
    fs.writeFileSync(path.join(dir, 'key.pem'), options.tls.key, { mode: 0o600 });
    tlsGlobal = ` defaultNetstreamDriver="gtls" defaultNetstreamDriverCAFile="${dir}/cert.pem" defaultNetstreamDriverCertFile="${dir}/cert.pem" defaultNetstreamDriverKeyFile="${dir}/key.pem"`;
    tlsModule = ' streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="anon"';
  }
  fs.writeFileSync(
    conf,
    `global(workDirectory="${work}" maxMessageSize="256k" net.enableDNS="off"${tlsGlobal})
module(load="imtcp"${tlsModule})
template(name="FleetdeckRaw" type="string" string="%rawmsg%\\n")
ruleset(name="fleetdeck") { action(type="omfile" file="${file}" template="FleetdeckRaw") }
input(type="imtcp" address="127.0.0.1" port="${port}" ruleset="fleetdeck")
`,
  );
  let child: ChildProcess | undefined;
  let stderr = '';
  const collector: Collector = {
    port,
    file,
    start: async () => {
      stderr = '';
      const c = spawn(bin, ['-n', '-f', conf, '-i', path.join(dir, 'rsyslogd.pid')], { stdio: ['ignore', 'pipe', 'pipe'] });
      c.stdout?.on('data', (d: Buffer) => (stderr += d.toString()));
      c.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      child = c;
      const end = Date.now() + 15_000;
      while (Date.now() < end) {
        if (c.exitCode !== null) throw new Error(`rsyslogd exited with ${c.exitCode}: ${stderr}`);
        if (await accepts(port)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`rsyslogd did not listen on ${port} within 15 s: ${stderr}`);
    },
    stop: async (signal = 'SIGTERM') => {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise<void>((r) => c.once('exit', () => r()));
      c.kill(signal);
      await exited;
    },
    lines: () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : []),
  };
  return collector;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
