/**
 * CPU of SMART parsing over the simulator's real texts: every drive of the refresh probe's fleet
 * (seed bench, 20 sites × 3 systems) as it answers in the default dialect (ATA HDD/SSD, NVMe) and
 * in the `sas-smart` dialect (SCSI, NVMe), parsed as the alert engine does on a first evaluation.
 * With `--against FILE` (another tree's `app/smart/parse.ts`), both parsers run in the same process,
 * alternating, and the ratio is printed; their results are compared too. Prints figures, asserts nothing.
 *
 *   node --import tsx test/bench/smart-parse.ts [--rounds 10] [--against /tmp/base/app/smart/parse.ts]
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { parseSmart } from '../../app/smart/parse.js';
import { serializeReport, simulatedSmartTexts } from '../support/smart-corpus.js';

type Parse = (text: string) => unknown;
const { values: flags } = parseArgs({ options: { rounds: { type: 'string' }, against: { type: 'string' } } });
const ROUNDS = Number(flags.rounds ?? 10);
const against = flags.against ? ((await import(pathToFileURL(flags.against).href)) as { parseSmart: Parse }).parseSmart : undefined;

const all = simulatedSmartTexts({ seed: 'bench', sites: 20, systems: 3, nowMs: Date.now() }).filter((t) => t.as === 'drive');
const groups: Array<[string, string[]]> = [
  ['default dialect (the probe fleet: ATA + NVMe)', all.filter((t) => t.kind.startsWith('default')).map((t) => t.text)],
  ['sas-smart dialect (SCSI + NVMe)', all.filter((t) => !t.kind.startsWith('default') || t.kind.includes('NVMe')).map((t) => t.text)],
];

/** Process CPU and wall (ms) of one pass of `parse` over `texts`. */
function pass(parse: Parse, texts: readonly string[]): { cpu: number; wall: number } {
  const u = process.cpuUsage();
  const w = performance.now();
  for (const t of texts) parse(t);
  const d = process.cpuUsage(u);
  return { cpu: (d.user + d.system) / 1000, wall: performance.now() - w };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
process.stdout.write(`load average at start: ${loadavg().map((x) => x.toFixed(2)).join(', ')}\n`);
for (const [name, texts] of groups) {
  if (against) {
    const differ = texts.filter((t) => serializeReport(parseSmart(t)) !== serializeReport(against(t))).length;
    process.stdout.write(`${name}: ${differ} of ${texts.length} texts parsed differently by the two parsers\n`);
  }
  // One pass each to warm the JIT; then alternate (A B, B A, …) so that load moves both alike.
  pass(parseSmart, texts);
  if (against) pass(against, texts);
  const mine = { cpu: [] as number[], wall: [] as number[] };
  const theirs = { cpu: [] as number[], wall: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    const order: Array<[Parse, typeof mine]> = [[parseSmart, mine], ...(against ? [[against, theirs] as [Parse, typeof mine]] : [])];
    for (const [parse, into] of r % 2 ? order.reverse() : order) {
      const m = pass(parse, texts);
      into.cpu.push(m.cpu);
      into.wall.push(m.wall);
    }
  }
  const us = (ms: number): string => ((ms * 1000) / texts.length).toFixed(1);
  let line = `${name}: ${texts.length} texts, median of ${ROUNDS}: this parser CPU ${median(mine.cpu).toFixed(1)} ms (${us(median(mine.cpu))} us/text), wall ${median(mine.wall).toFixed(1)} ms`;
  if (against) line += `; --against CPU ${median(theirs.cpu).toFixed(1)} ms (${us(median(theirs.cpu))} us/text), wall ${median(theirs.wall).toFixed(1)} ms; CPU ratio ${(median(mine.cpu) / median(theirs.cpu)).toFixed(2)}`;
  process.stdout.write(`${line}\n`);
}
process.stdout.write(`load average at end: ${loadavg().map((x) => x.toFixed(2)).join(', ')}\n`);
