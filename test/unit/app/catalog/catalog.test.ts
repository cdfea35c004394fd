import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, findOperation, typeName, type Operation } from '../../../../app/catalog/index.js';

/**
 * The catalog is checked against the interface document itself (docs/interface.md, a copy of the
 * contract): every endpoint-table row of section 4 is parsed and compared with its catalog entry.
 */
const DOC = readFileSync(new URL('../../../../docs/interface.md', import.meta.url), 'utf8');

interface DocRow {
  section: string;
  method: string;
  path: string;
  query: string;
  body: string;
}

function docRows(): DocRow[] {
  const rows: DocRow[] = [];
  let section = '';
  for (const line of DOC.split('\n')) {
    const h = /^### (4\.\d+) /.exec(line);
    if (h) section = h[1] as string;
    if (!section || !line.startsWith('| ')) continue;
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (section === '4.10') {
      // Monitoring table: Path | Query | 200 body (all GET, no body).
      if (!cells[0]?.startsWith('/')) continue;
      rows.push({ section, method: 'GET', path: cells[0], query: cells[1] as string, body: 'none' });
      continue;
    }
    if (!/^(GET|POST|PUT|DELETE)$/.test(cells[0] ?? '')) continue;
    rows.push({ section, method: cells[0] as string, path: cells[1] as string, query: cells[2] as string, body: cells[3] as string });
  }
  return rows;
}

/** Names in a "name T, name T (note), C" cell; C expands to the async/uncommitAndAggregateId pair. */
function names(cell: string): string[] {
  const text = cell.replace(/\([^)]*\)/g, '').replace(/\{[^}]*\}/g, 'Object').trim();
  if (/^(none|parameters not shown|summary:.*)$/i.test(text)) return [];
  if (/^header /.test(text)) return [];
  const out: string[] = [];
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    if (part === 'C') out.push('async', 'uncommitAndAggregateId');
    else out.push(part.split(/\s+/)[0] as string);
  }
  return out;
}

/** Body cells that name a section-2 type or another row instead of listing fields. */
const BODY_REFERENCES: Record<string, string[]> = {
  ApplicationElementCreate: ['Application', 'Template', 'Description'],
  ApplicationElementEdit: ['Application', 'Description'],
  AuthenticateElement: [
    'Username',
    'Password',
    'TwoFactorAuthenticationToken',
    'EmailVerficationUpdatedEmailAddress',
    'EmailVerificationToken',
    'InactivityTimeoutInMinutes',
  ],
};

function expectedBody(row: DocRow, all: DocRow[]): string[] {
  const cell = row.body.trim();
  if (BODY_REFERENCES[cell]) return BODY_REFERENCES[cell];
  if (cell === 'same as create') {
    const create = all.find((r) => r.section === row.section && r.path === row.path.replace(/\/[^/]+$/, '/create'));
    return names(create?.body ?? '');
  }
  const without = /^same as (\S+) without (\S+)$/.exec(cell);
  if (without) {
    const base = all.find((r) => r.section === row.section && r.path.endsWith(`/${without[1]}`));
    return names(base?.body ?? '').filter((n) => n !== without[2]);
  }
  return names(cell);
}

const rows = docRows();

describe('operation catalog', () => {
  it('has one entry per endpoint-table row of section 4, plus GET /configurations/list', () => {
    expect(rows).toHaveLength(128);
    expect(OPERATIONS).toHaveLength(129);
    const keys = new Set<string>(OPERATIONS.map((o) => o.key));
    expect(keys.size).toBe(129);
    for (const row of rows) expect(keys.has(`${row.method} ${row.path}`), `${row.method} ${row.path}`).toBe(true);
    expect(keys.has('GET /configurations/list')).toBe(true);
  });

  it('matches the per-section counts of the document', () => {
    const perSection = new Map<string, number>();
    for (const r of rows) perSection.set(r.section, (perSection.get(r.section) ?? 0) + 1);
    const catalogPerSection = new Map<string, number>();
    for (const r of rows) {
      const op = findOperation(r.method, r.path) as Operation;
      catalogPerSection.set(r.section, (catalogPerSection.get(r.section) ?? 0) + (op ? 1 : 0));
    }
    expect(Object.fromEntries(catalogPerSection)).toEqual(Object.fromEntries(perSection));
    expect(Object.fromEntries(perSection)).toEqual({
      '4.1': 12, '4.2': 12, '4.3': 11, '4.4': 10, '4.5': 9, '4.6': 12, '4.7': 6,
      '4.8': 5, '4.9': 4, '4.10': 13, '4.11': 4, '4.12': 7, '4.13': 21, '4.14': 2,
    });
  });

  it.each(rows.map((r) => [`${r.method} ${r.path}`, r] as const))('%s has the documented query parameters and body fields', (_key, row) => {
    const op = findOperation(row.method, row.path) as Operation;
    if (!op.inferred) expect(op.query.map((f) => f.name)).toEqual(names(row.query));
    else expect(op.query.map((f) => f.name)).toEqual(expect.arrayContaining(names(row.query)));
    expect(op.body.map((f) => f.name)).toEqual(expectedBody(row, rows));
  });

  it('puts the datastore async in a header, not the query', () => {
    const op = findOperation('POST', '/hypervisor/datastore/plugin/create') as Operation;
    expect(op.headers.map((h) => [h.name, typeName(h.type)])).toEqual([['async', 'boolean']]);
    expect(op.query).toEqual([]);
    expect(op.response.kind).toBe('empty');
    const volume = op.body.find((f) => f.name === 'volume');
    expect(volume && typeName(volume.type)).toBe('Volume');
  });

  it('types query parameters and nested body objects', () => {
    const perf = findOperation('GET', '/monitoring/performance/history') as Operation;
    const t = Object.fromEntries(perf.query.map((f) => [f.name, typeName(f.type)]));
    expect(t).toMatchObject({ volumes: 'string[]', fromDate: 'date-time', interval: 'integer', iops: 'boolean' });
    const tv = findOperation('POST', '/templates/volumes/create') as Operation;
    const tiers = tv.body.find((f) => f.name === 'Tiers');
    expect(tiers && typeName(tiers.type)).toBe('Tiers');
    const hist = tiers && typeof tiers.type !== 'string' && 'fields' in tiers.type ? tiers.type.fields.find((f) => f.name === 'TierDataDegradationHistogram') : undefined;
    expect(hist && typeName(hist.type)).toBe('integer[][]');
    const anomaly = findOperation('PUT', '/settings/anomaly_detection/edit') as Operation;
    expect(anomaly.body.map((f) => typeName(f.type))).toEqual(['integer', 'number']);
  });

  it('marks reads, writes and destructive operations', () => {
    for (const op of OPERATIONS) {
      if (op.method === 'DELETE') expect(op.destructive, op.key).toBe(true);
      if (op.method !== 'GET' && op.key !== 'POST /login' && op.key !== 'PUT /nas_servers/directory_service/test_join') expect(op.writes, op.key).toBe(true);
      // Every operation carrying the C pair is not a pure read (general fact 3).
      if (op.query.some((f) => f.name === 'uncommitAndAggregateId')) expect(op.writes, op.key).toBe(true);
    }
    for (const key of ['PUT /nodes/takeover', 'PUT /nodes/giveback', 'PUT /replication/primary', 'PUT /notifications/settings/email/reset', 'DELETE /replication/stop', 'DELETE /hosts/unpair']) {
      expect(OPERATIONS.find((o) => o.key === key)?.destructive, key).toBe(true);
    }
    for (const key of ['GET /hosts/list', 'GET /monitoring/health/current', 'GET /resources/drives/smart']) {
      const op = OPERATIONS.find((o) => o.key === key) as Operation;
      expect([op.writes, op.destructive], key).toEqual([false, false]);
    }
  });

  it('knows every secret field the document names', () => {
    const secrets = (key: string) => OPERATIONS.find((o) => o.key === key)?.secrets;
    expect(secrets('POST /hosts/create')).toEqual(['ChapSecret']);
    expect(secrets('PUT /nodes/chap')).toEqual(['ChapSecret']);
    expect(secrets('POST /users/create')).toEqual(['Password']);
    expect(secrets('PUT /applications/encryption/supply_encryption_key')).toEqual(['EncryptionKey']);
    expect(secrets('POST /notifications/targets/snmp/add')).toEqual(['CommunityString', 'V3AuthPhrase', 'V3PrivacyPhrase']);
    expect(secrets('PUT /resources/drives/sed/supply_password')).toEqual(['Password']);
    expect(secrets('POST /login')).toContain('SessionToken');
    expect(secrets('POST /hypervisor/datastore/plugin/create')).toEqual(
      expect.arrayContaining(['volume.EncryptionKey', 'volume.Object.AccessKeys', 'SessionTokenPlugin']),
    );
  });

  it('lets only login and password reset run without a token', () => {
    expect(OPERATIONS.filter((o) => !o.authenticated).map((o) => o.key).sort()).toEqual(['POST /login', 'POST /resetpassword']);
  });
});
