import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANSWER_TYPES, OPERATIONS, isIdentifierField, type AnswerValueType } from '../../../../app/catalog/index.js';

/**
 * The answer types the normaliser reads are the same as the TypeScript types in resources.ts, field
 * for field: resources.ts is parsed as text and compared, so a field added to one and not the other
 * fails here rather than being silently left un-normalised.
 */
const SOURCE = readFileSync(new URL('../../../../app/catalog/resources.ts', import.meta.url), 'utf8');

interface TsField {
  name: string;
  type: string;
}

function interfaces(): Map<string, TsField[]> {
  const out = new Map<string, TsField[]>();
  const extendsOf = new Map<string, string>();
  for (const m of SOURCE.matchAll(/export interface (\w+)(?:<\w+>)?(?: extends (\w+))? \{([\s\S]*?)\n\}/g)) {
    const [, name, parent, body] = m as unknown as [string, string, string | undefined, string];
    const fields: TsField[] = [];
    for (const f of body.matchAll(/^\s+(\w+)\?: ([^;]+);/gm)) fields.push({ name: f[1] as string, type: (f[2] as string).replace(/\s*\|\s*null$/, '') });
    out.set(name, fields);
    if (parent) extendsOf.set(name, parent);
  }
  for (const [name, parent] of extendsOf) out.set(name, [...(out.get(parent) ?? []), ...(out.get(name) ?? [])]);
  return out;
}

/** The TypeScript spelling of an answer type, as resources.ts writes it. */
function tsType(t: AnswerValueType): string {
  if (typeof t === 'string') return t === 'integer' || t === 'number' ? 'number' : t === 'boolean' ? 'boolean' : 'string';
  if ('array' in t) return `${tsType(t.array)}[]`;
  if ('map' in t) return `Record<string, ${tsType(t.map)}>`;
  return t.ref;
}

describe('answer types', () => {
  const ts = interfaces();

  it('cover every type a response of the catalog names, and every type those reach', () => {
    const named = OPERATIONS.flatMap((op) => (op.response.kind === 'list' ? [op.response.item] : op.response.kind === 'object' ? [op.response.type] : []));
    for (const name of named) expect(ANSWER_TYPES.has(name), name).toBe(true);
    expect(ANSWER_TYPES.size).toBeGreaterThan(60);
  });

  it('match resources.ts field for field, name and type', () => {
    for (const [name, type] of ANSWER_TYPES) {
      const fields = ts.get(name);
      expect(fields, `resources.ts has no interface ${name}`).toBeDefined();
      expect(type.fields.map((f) => `${f.name}: ${tsType(f.type)}`).sort(), name).toEqual((fields ?? []).map((f) => `${f.name}: ${f.type}`).sort());
    }
  });

  it('know identifiers by name', () => {
    for (const id of ['Id', 'ReplicationId', 'RemoteSystemId', 'TierEntityIds', 'Cgid', 'PoolId', 'VolumeEntityId']) expect(isIdentifierField(id), id).toBe(true);
    for (const other of ['CapacityInBytes', 'Level', 'Vols', 'N', 'MailServerPort']) expect(isIdentifierField(other), other).toBe(false);
  });
});
