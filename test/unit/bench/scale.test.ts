import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { paintFigures, startShellProcess, type PaintLoad } from '../../bench/scale.js';

const load = (paint: number, cpu: number, firstCall: number, lastAnswer: number): PaintLoad => ({ paint, cpu, firstCall, lastAnswer });

describe('the scale part’s first-paint figures', () => {
  it('reports each figure as its median over the loads, and the range of the paints', () => {
    const f = paintFigures([load(210, 90, 60, 120), load(180, 95, 58, 100), load(400, 130, 70, 300), load(190, 92, 59, 110), load(200, 91, 61, 105)]);
    expect(f).toEqual({ paintMs: 200, paintRange: [180, 400], paintCpuMs: 92, firstCallMs: 60, lastAnswerMs: 110 });
  });
});

describe('startShellProcess', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('fails with the root named when the shell exits before printing its address', async () => {
    const root = mkdtempSync(join(tmpdir(), 'fleetdeck-no-build-'));
    dirs.push(root);
    const { url } = startShellProcess(join(root, 'data'), root);
    await expect(url).rejects.toThrow(`${root}: the browser shell exited 1 before serving`);
  });
});
