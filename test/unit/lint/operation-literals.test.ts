import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATION_KEYS } from '../../../app/catalog/index.js';
import { checkOperationLiterals, literalsInComponent, misspellingsOf, type LiteralFinding } from './operation-literals.js';

/**
 * Every `'METHOD /path'` literal of the renderer stands where the compiler checks it against the
 * catalog: a misspelling of it (one character changed, dropped or added) fails `npm run typecheck`
 * where it is written, not at run time. Components are read through svelte2tsx, as svelte-check does,
 * so literals in markup (props, attributes) are checked too.
 */
const ROOT = new URL('../../..', import.meta.url).pathname;
const KEYS: ReadonlySet<string> = new Set(OPERATION_KEYS);

function where(f: LiteralFinding): string {
  return `${f.file}:${f.line} '${f.text}' (expects ${f.expected ?? 'nothing'})`;
}

function componentsUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.svelte'))
    .map((e) => join(e.parentPath, e.name));
}

describe('operation literals', () => {
  it('misspells a key one character away, never into another key', () => {
    expect(misspellingsOf('GET /hosts/list', KEYS)).toEqual(['GET /hosts/lisx', 'GET /osts/list', 'GET /hosts/lists']);
    for (const key of KEYS) for (const m of misspellingsOf(key, KEYS)) expect(KEYS.has(m)).toBe(false);
  });

  it('tells a checked position from a loose one, in code and in markup', () => {
    const found = checkOperationLiterals(ROOT, KEYS, 'test/fixtures/operation-literals');
    const summary = found.map((f) => [f.file.replace('test/fixtures/operation-literals/', ''), f.expected !== undefined && f.accepted && f.misspellingsAccepted.length === 0]);
    expect(summary).toEqual(
      expect.arrayContaining([
        ['positions.ts', true], // typed OperationKey
        ['positions.ts', false], // typed string
        ['positions.ts', false], // as const
        ['positions.ts', true], // compared with an OperationKey
        ['OpLabel.svelte', true], // a prop's default
        ['UsesLabel.svelte', true], // op="…" on an OperationKey prop
        ['UsesLabel.svelte', false], // label="…" on a string prop
      ]),
    );
    expect(found.filter((f) => f.file.endsWith('positions.ts')).map((f) => f.expected !== undefined && f.misspellingsAccepted.length === 0)).toEqual([true, false, false, true]);
    expect(found).toHaveLength(7);
  }, 180_000);

  it('every literal in renderer/ is refused when misspelt', () => {
    const found = checkOperationLiterals(ROOT, KEYS);
    const unchecked = found.filter((f) => f.expected === undefined || !f.accepted || f.misspellingsAccepted.length > 0).map(where);
    expect(unchecked).toEqual([]);
    // No literal of a component is lost on the way through svelte2tsx.
    for (const component of componentsUnder(join(ROOT, 'renderer'))) {
      const file = component.slice(ROOT.length);
      expect(found.filter((f) => f.file === file).length, file).toBeGreaterThanOrEqual(literalsInComponent(component).length);
    }
    // The count the note reports: every literal of renderer/ code, each with its misspellings refused.
    console.info(`operation literals checked in renderer/: ${found.length} (${new Set(found.map((f) => f.text)).size} keys, ${found.reduce((n, f) => n + misspellingsOf(f.text, KEYS).length, 0)} misspellings refused)`);
    expect(found.length).toBeGreaterThan(100);
  }, 300_000);
});
