import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSmart, type SmartReport } from '../../../../app/smart/parse.js';
import { reportOf, serializeReport, variantsOf } from '../../../support/smart-corpus.js';

/**
 * The parser returns what it returned before its single-pass rewrite (sm26): the expected results
 * were generated once from the earlier parser (test/fixtures/smart-corpus/make-expected.ts) over the
 * simulator's texts of every kind and the unit tests' texts, plus digests of its results on each
 * text's variants (line ends, cuts, whitespace, letter case, colons, columns).
 */
interface Case {
  name: string;
  text: string;
  previous?: string;
  report: string;
  variants: Record<string, string>;
}
const corpus = JSON.parse(readFileSync(new URL('../../../fixtures/smart-corpus/expected.json', import.meta.url), 'utf8')) as { cases: Case[] };

describe('parseSmart over the corpus of SMART texts', () => {
  it('holds the simulator\'s texts of every kind and the unit tests\' texts', () => {
    const names = corpus.cases.map((c) => c.name);
    for (const kind of ['default HDD', 'default SSD', 'default NVMe', 'sas HDD', 'sas SSD', 'degrading', 'Failed', 'grown-defects', 'unreadable', 'later', 'unit test']) expect(names.some((n) => n.includes(kind)), kind).toBe(true);
    expect(new Set(corpus.cases.map((c) => JSON.parse(c.report).kind))).toEqual(new Set(['ata', 'nvme', 'scsi', 'unknown']));
  });

  it.each(corpus.cases.map((c) => [c.name, c] as const))('%s: the same report as before', (_name, c) => {
    const previous = c.previous === undefined ? undefined : reportOf<SmartReport>(c.previous);
    expect(JSON.parse(serializeReport(parseSmart(c.text, previous)))).toEqual(JSON.parse(c.report));
  });

  it.each(corpus.cases.map((c) => [c.name, c] as const))('%s: the same reports of its variants', (_name, c) => {
    const got = Object.fromEntries(
      Object.entries(variantsOf(c.text)).map(([family, texts]) => [family, createHash('sha256').update(texts.map((t) => serializeReport(parseSmart(t))).join('\n')).digest('hex')]),
    );
    expect(got).toEqual(c.variants);
  });
});
