/**
 * What a wake-up from idle costs on this machine: one fixed piece of CPU work (JSON text written
 * and read back, a map filled) timed back to back and after idle waits of several lengths. Where
 * the same work costs more CPU after a wait, a process that wakes often (a monitor's polls spread
 * over a minute) pays it at every wake-up: the reason the poll schedule starts polls due close
 * together at once (`coalescedDue`). Prints, asserts nothing.
 *
 *   npx tsx test/bench/wake-cost.ts [--bursts N]
 */
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({ options: { bursts: { type: 'string' } } });
const BURSTS = Number(flags.bursts ?? 20);

const sample = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `n${i}`, value: i / 7, tags: ['a', 'b', String(i)] })) };

/** `size` rounds of the work; returns something of it so that none is optimised away. */
function work(size: number): number {
  let kept = 0;
  for (let i = 0; i < size; i++) {
    const text = JSON.stringify(sample);
    const back = JSON.parse(text) as typeof sample;
    const byName = new Map<string, number>();
    for (const item of back.items) byName.set(item.name, item.value);
    kept += byName.size + text.length;
  }
  return kept;
}

/** Mean CPU (user + system) of one burst of `size`, each after `waitMs` of idle, in ms. */
async function meanCpuMs(size: number, waitMs: number): Promise<number> {
  let sum = 0;
  for (let b = 0; b < BURSTS; b++) {
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    const c0 = process.cpuUsage();
    work(size);
    const c = process.cpuUsage(c0);
    sum += (c.user + c.system) / 1000;
  }
  return sum / BURSTS;
}

// Compiled and warm before anything is timed.
for (let i = 0; i < 10; i++) work(50);
for (const size of [1, 15, 150]) {
  const cells: string[] = [];
  for (const waitMs of [0, 20, 200, 1000]) cells.push(`${waitMs} ms idle: ${(await meanCpuMs(size, waitMs)).toFixed(1)} ms`);
  process.stdout.write(`burst of ${size}: CPU per burst after ${cells.join(', ')}\n`);
}
