import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { OfflineCache, openStores } from '../../../../main/store/index.js';
import { until } from '../../../support/until.js';
import { useTempDirs } from './temp-dir.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const storeModule = pathToFileURL(path.join(repo, 'main/store/index.ts')).href;
const tempDir = useTempDirs();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** Appends and caches in a loop; prints `seq hash` after each append returns (= acknowledged). */
const WRITER = `
import { openStores } from ${JSON.stringify(storeModule)};
const [dataDir, name] = process.argv.slice(2);
const stores = openStores(dataDir, { cacheMaxBytes: 200_000 });
if (stores.warnings.length) throw new Error(stores.warnings.join('; '));
const log = stores.actionLog;
const cache = stores.cache;
for (let i = 0; ; i++) {
  cache.put('lab', name, 'GET /volumes/list?page=' + (i % 40), { Data: [{ Name: name + '-' + i, ChapSecret: 'MARKER-CHAP-1', Pad: 'x'.repeat(3000) }] });
  const rec = log.append({ user: 'admin', siteId: 'lab', system: name, operation: 'POST /volumes/create', params: { Name: name + '-' + i }, result: 'ok', message: '' });
  process.stdout.write(rec.seq + ' ' + rec.hash + '\\n');
}
`;

interface Writer {
  child: ChildProcess;
  acked: Map<number, string>;
  stderr: string[];
}

function startWriter(script: string, dataDir: string, name: string): Writer {
  // tsx compiles the TypeScript sources on the fly, so the test needs no prior build.
  const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir, name], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const w: Writer = { child, acked: new Map(), stderr: [] };
  let buffered = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const [seq, hash] = line.split(' ');
      w.acked.set(Number(seq), hash ?? '');
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => w.stderr.push(chunk));
  return w;
}


function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

describe('crash safety', () => {
  it('keeps every acknowledged append and a valid chain after two writers are SIGKILLed mid-run', async () => {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    const script = path.join(dir, 'writer.mjs');
    fs.writeFileSync(script, WRITER);
    const writers = [startWriter(script, dataDir, 'sys1'), startWriter(script, dataDir, 'sys2')];
    await until(
      () => writers.every((w) => w.acked.size >= 50),
      () => writers.map((w) => `${w.acked.size} acked ${w.stderr.join('')}`).join('; '),
    );
    for (const w of writers) w.child.kill('SIGKILL');
    await Promise.all(writers.map((w) => killed(w.child)));
    expect(writers.map((w) => w.child.signalCode)).toEqual(['SIGKILL', 'SIGKILL']);

    const stores = openStores(dataDir);
    const db = stores.cacheDb;
    try {
      expect(stores.warnings).toEqual([]);
      const log = stores.actionLog;
      const result = log.verify();
      expect(result.problems).toEqual([]);
      expect(result.ok).toBe(true);
      const stored = new Map(log.list().map((r) => [r.seq, r.hash]));
      // Both writers shared one chain: no seq acknowledged twice, each stored with the hash acknowledged.
      const acked = writers.flatMap((w) => [...w.acked]);
      expect(new Set(acked.map(([seq]) => seq)).size).toBe(acked.length);
      for (const [seq, hash] of acked) expect(stored.get(seq), `seq ${seq}`).toBe(hash);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const cache = new OfflineCache({ db, maxBytes: 200_000 });
      expect(cache.sizeBytes()).toBeLessThanOrEqual(200_000);
      expect(cache.entries('lab', 'sys1').length).toBeGreaterThan(0);
    } finally {
      stores.close();
    }
  });
});
