import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../app/catalog/index.js';
import { base32Encode } from '../../../simulator/totp.js';
import { harness, raw } from './support.js';
import type { Harness } from './support.js';

const KEY = 'feedface'.repeat(8);
const MARKERS = [
  'MARKER-user-pw-1', 'MARKERchap12', 'MARKERtgtchap1', 'MARKER-nas-pw', 'MARKER-mail-pw', 'MARKER-community', 'MARKER-auth-phrase',
  'MARKER-priv-phrase', 'MARKER-sed-pw', 'MARKER-plugin-token', 'MARKER-community-2', KEY,
];

describe('secrets are write-only', () => {
  let h: Harness;
  const responses: string[] = [];
  beforeAll(async () => {
    h = await harness({ sites: 1, systems: 2 });
  });
  afterAll(async () => h.close());

  it('sets a marker in every secret field the interface has', async () => {
    const writes: Array<[string, { body?: unknown; query?: Record<string, unknown> }]> = [
      ['POST /users/create', { body: { Name: 'sec-user', Password: 'MARKER-user-pw-1', Role: 'Viewer', Email: 'sec@example.com' } }],
      ['POST /hosts/create', { body: { Name: 'sec-host', Iqn: 'iqn.2024-01.com.example:sec', ChapSecret: 'MARKERchap12' } }],
      ['PUT /nodes/chap', { body: { ChapName: 'tgt', ChapSecret: 'MARKERtgtchap1' } }],
      ['POST /nas_servers/create', { body: { Name: 'SECNAS', FloatingIps: ['nas-fip'], DirectoryService: 'corp.example.com', Username: 'svc', Password: 'MARKER-nas-pw' } }],
      ['PUT /notifications/settings/email/edit', { body: { Password: 'MARKER-mail-pw' } }],
      ['POST /notifications/targets/snmp/add', { body: { Ip: '10.1.0.9', TrapVersion: 'v3', V3Username: 'u', V3AuthPhrase: 'MARKER-auth-phrase', V3PrivacyPhrase: 'MARKER-priv-phrase', CommunityString: 'MARKER-community', Name: 'sec-trap' } }],
      ['PUT /notifications/targets/snmp/edit', { body: { Name: 'sec-trap', CommunityString: 'MARKER-community-2' } }],
      ['PUT /resources/drives/sed/supply_password', { body: { Password: 'MARKER-sed-pw' } }],
      ['PUT /applications/encryption/supply_encryption_key', { body: { Cgid: 1, EncryptionKey: KEY } }],
      ['POST /hypervisor/datastore/plugin/create', { body: { datastore: { Name: 'd' }, SessionTokenPlugin: 'MARKER-plugin-token', ManagerAddress: '10.0.0.5' } }],
    ];
    for (const [op, o] of writes) {
      const answer = await h.call(op, o);
      responses.push(JSON.stringify(answer ?? ''));
    }
    expect(responses).toHaveLength(writes.length);
  });

  it('never shows them (nor tokens, TOTP keys or seeded secrets) in any read', async () => {
    const token = await h.login();
    for (const system of h.sim.manifest.sites[0]!.systems) {
      await h.client.selectSystem(token, system);
      for (const op of OPERATIONS.filter((o) => o.method === 'GET' && !o.writes)) {
        const r = await raw(h.baseUrl, 'GET', op.path, { token });
        responses.push(r.text);
      }
      for (const query of ['?sensors=true&gateway=true&vols=true&ip=true&sed=true', '']) responses.push((await raw(h.baseUrl, 'GET', `/nodes/list${query}`, { token })).text);
      responses.push((await raw(h.baseUrl, 'GET', '/resources/list?details=true&sensors=true', { token })).text);
      responses.push((await raw(h.baseUrl, 'GET', '/monitoring/health/current?details=true', { token })).text);
    }
    const site = h.sim.fleet.sites[0]!;
    const seeded = [
      ...site.systems.flatMap((s) => [s.email.password, ...s.nasServers.map((n) => n.password), ...s.apps.flatMap((a) => a.volumes.map((v) => v.encryptionKey))]),
      ...site.users.flatMap((u) => [base32Encode(u.totpSecret), u.totpSecret.toString('hex')]),
      ...site.sessions.keys(),
    ].filter((x): x is string => typeof x === 'string' && x.length >= 8);
    expect(seeded.length).toBeGreaterThan(5);
    const text = responses.join('\n');
    expect(text.length).toBeGreaterThan(50_000);
    for (const secret of [...MARKERS, ...seeded]) expect(text.includes(secret), `leaked ${secret.slice(0, 12)}…`).toBe(false);
    // The secrets are stored: sanity check that the grep looks at real values.
    expect(site.systems[0]?.chap.secret).toBe('MARKERtgtchap1');
  });
});
