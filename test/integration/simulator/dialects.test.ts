import { spawn } from 'node:child_process';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Drive, Node } from '../../../app/catalog/resources.js';
import { DIALECT_NAMES } from '../../../simulator/index.js';
import { harness, type Harness } from './support.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

async function control(base: string, method: 'GET' | 'PUT', path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await request(`${base}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.statusCode, json: await res.body.json() };
}

/** The drives of the first node, as `resources/list` shows them with details. */
async function firstNodeDrives(h: Harness): Promise<Drive[]> {
  const list = await h.call<{ Data: Node[] }>('GET /resources/list', { query: { resourceType: 'Drive', details: true } });
  return list.Data[0]?.Drives ?? [];
}

const smart = (h: Harness, d: Drive): Promise<string> => h.call<string>('GET /resources/drives/smart', { query: { driveid: d.Id } });

describe('simulator dialects: sas-smart', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ sites: 1, systems: 1, controlServer: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers as before while no dialect is on', async () => {
    expect(await control(h.sim.manifest.control, 'GET', '/dialects')).toMatchObject({ status: 200, json: { dialects: [], known: { 'sas-smart': expect.any(String) } } });
    const hdd = (await firstNodeDrives(h)).find((d) => d.Type === 'HDD') as Drive;
    expect(hdd.DeviceName).toMatch(/\/ata-/);
    expect(await smart(h, hdd)).toMatch(/ID# ATTRIBUTE_NAME/);
  });

  it('switched on through the control API: SAS models, SCSI SMART text, the drive with grown defects and the unreadable one', async () => {
    expect(await control(h.sim.manifest.control, 'PUT', '/dialects', { dialects: ['SAS-SMART'] })).toMatchObject({ status: 200, json: { dialects: ['sas-smart'] } });
    const drives = await firstNodeDrives(h);
    const node = h.sim.fleet.sites[0]?.systems[0]?.nodes[0];
    // The simulator picks the first approved HDD that is neither degrading nor missing, then the next.
    const steady = new Set(node?.drives.filter((d) => d.wear.degradePerHour === 0 && d.status !== 'Missing').map((d) => d.id));
    const hdds = drives.filter((d) => d.Type === 'HDD' && d.ApprovedState === 'Approved' && steady.has(d.Id as number));
    const ssd = drives.find((d) => d.Type === 'SSD') as Drive;
    const nvme = drives.find((d) => d.Type === 'NVMe') as Drive;
    // Type still names the medium; the model, firmware and device path are those of SAS drives.
    expect(hdds[0]?.DeviceName).toMatch(/\/scsi-S/);
    expect(hdds[0]?.Model).toMatch(/^(ST1[26]000NM002G|WUH721816AL5204|MG08SCA16TE)$/);
    expect(ssd.Model).toMatch(/^(MZILT3T8HBLS\/007|KPM6XRUG3T84|WUSTR6438ASS200)$/);

    const bad = await smart(h, hdds[0] as Drive);
    expect(bad).toContain('SMART Health Status: OK');
    expect(bad).toMatch(/^Elements in grown defect list: 2500$/m);
    expect(bad).toMatch(/^read: +(\d+ +){5}[\d.]+ +57$/m);
    expect(bad).toMatch(/^Error counter log:$/m);
    expect(hdds[0]?.ResourceStatus).toBe('OK');

    expect(await smart(h, hdds[1] as Drive)).toMatch(/Smartctl open device: \S+ failed: DELL or MegaRaid controller/);
    const healthy = await smart(h, hdds[2] as Drive);
    expect(healthy).toMatch(/^Elements in grown defect list: 0$/m);
    expect(healthy).toMatch(/^Transport protocol: +SAS \(SPL-3\)$/m);
    expect(await smart(h, ssd)).toMatch(/^Percentage used endurance indicator: \d+%$/m);
    // NVMe drives are not SAS: their health log is unchanged.
    expect(await smart(h, nvme)).toContain('SMART/Health Information (NVMe Log 0x02)');
    expect(nvme.DeviceName).toMatch(/\/nvme-/);
  });

  it('switches off again, and refuses a dialect it does not know', async () => {
    const refused = await control(h.sim.manifest.control, 'PUT', '/dialects', { dialects: ['sas-smart', 'klingon'] });
    expect(refused).toEqual({ status: 400, json: { error: `unknown dialect "klingon": known dialects are ${DIALECT_NAMES.join(', ')}` } });
    expect(h.sim.control.dialects()).toEqual(['sas-smart']);
    expect(await control(h.sim.manifest.control, 'PUT', '/dialects', { dialects: [] })).toMatchObject({ status: 200, json: { dialects: [] } });
    const hdd = (await firstNodeDrives(h)).find((d) => d.Type === 'HDD') as Drive;
    expect(await smart(h, hdd)).toMatch(/ID# ATTRIBUTE_NAME/);
  });

  it('takes --dialect on the command line and refuses an unknown one before listening', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'simulator/cli.ts', '--dialect', 'sas-smart,nope'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(err).toContain(`simulator: unknown dialect "nope": known dialects are ${DIALECT_NAMES.join(', ')}`);
  });
});
