/**
 * The audit pack's build and export at 200 systems, by CPU time, from a cached fleet (no refresh):
 *
 *   npx tsx test/bench/audit-pack.ts [--runs N] [--out DIR]
 *
 * The cached fleet is built once in `BENCH_AUDIT_DIR` (default: a dir under the OS temp dir) and
 * reused. The report is generated with a fixed clock, so the files written to `--out DIR/<run>`
 * are the same from run to run and from one version of the code to the next (compare them with
 * `diff -r` to show an optimisation left the output as it was). Prints the CPU time of this process
 * per phase (collect + build, export, the PDF alone by phase), for before/after comparisons on a
 * loaded machine where wall times swing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRuntime } from '../../main/runtime.js';
import { ReportService } from '../../main/reports/service.js';
import { ReportStore } from '../../main/reports/store.js';
import { writeReportPdf, type PdfPhase } from '../../main/reports/pdf.js';
import { exportReport } from '../../main/reports/export.js';
import { openStores } from '../../main/store/stores.js';
import { cachedFleet } from './cached-fleet.js';
import { SIZES } from './scale.js';
import { median } from './support.js';

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const runs = Number(arg('--runs') ?? 3);
const outRoot = arg('--out');
const fleetDir = process.env.BENCH_AUDIT_DIR ?? join(tmpdir(), 'fleetdeck-bench-audit200');
const CLOCK = new Date('2026-01-01T00:00:00.000Z');

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

await cachedFleet(fleetDir, SIZES.s200);
const rt = await openRuntime({ dataDir: join(fleetDir, 'data'), memorySecrets: true, searchIndex: false });
const historyDir = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-audit-history-'));
const history = openStores(historyDir);
const service = new ReportService({ fleet: rt.fleet, sites: rt.sites, actionLog: rt.actionLog, store: new ReportStore(history.reportsDb), user: 'bench', appVersion: '0.0.0-bench', clock: () => CLOCK });
const rows: Array<{ build: number; exportCpu: number; layout: number; pdfCpu: number; others: number; pages: number }> = [];
try {
  for (let run = 0; run < runs; run++) {
    const scratch = mkdtempSync(join(tmpdir(), 'fleetdeck-bench-audit-out-'));
    try {
      let cpu = process.cpuUsage();
      const generated = await service.generate({ kind: 'audit', offline: true });
      const build = cpuMs(cpu);
      cpu = process.cpuUsage();
      await service.export(generated.id, outRoot ? join(outRoot, String(run)) : join(scratch, 'pack'), ['pdf', 'html', 'csv', 'json']);
      const exportCpu = cpuMs(cpu);
      const phases: PdfPhase[] = [];
      cpu = process.cpuUsage();
      await writeReportPdf(generated.model, { onPhase: (p) => phases.push(p) });
      const pdfCpu = cpuMs(cpu);
      cpu = process.cpuUsage();
      await exportReport(generated.model, { dir: join(scratch, 'others'), formats: ['html', 'csv', 'json'], exportedBy: 'bench', exportedAt: CLOCK });
      const others = cpuMs(cpu);
      const layout = phases.find((p) => p.phase === 'layout');
      rows.push({ build, exportCpu, layout: layout?.ms ?? 0, pdfCpu, others, pages: layout?.pages ?? 0 });
      process.stdout.write(`run ${run + 1}: build CPU ${build.toFixed(0)} ms, export CPU ${exportCpu.toFixed(0)} ms (PDF alone CPU ${pdfCpu.toFixed(0)} ms, layout wall ${(layout?.ms ?? 0).toFixed(0)} ms, ${layout?.pages ?? 0} pages; HTML+CSV+JSON CPU ${others.toFixed(0)} ms); load ${loadavg()[0]?.toFixed(2)}\n`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  const med = (k: keyof (typeof rows)[number]): string => median(rows.map((r) => r[k])).toFixed(0);
  process.stdout.write(`median of ${runs}: build CPU ${med('build')} ms, export CPU ${med('exportCpu')} ms, PDF CPU ${med('pdfCpu')} ms, HTML+CSV+JSON CPU ${med('others')} ms\n`);
} finally {
  await rt.close();
  history.close();
  rmSync(historyDir, { recursive: true, force: true });
}
