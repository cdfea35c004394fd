import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import LineChart from '../../../renderer/components/LineChart.svelte';
import type { Series } from '../../../renderer/lib/series.js';
import { renderComponent } from './support/render.js';

// chart.js is loaded when a first chart is drawn, not with the window (cold start). jsdom
// has no canvas: a 2D context is stubbed, and chart.js is watched by its mock (its factory runs
// only when something imports it), the charts it builds and destroys recorded.
const charts: Array<{ canvas: unknown; datasets: Array<{ label: string; data: unknown }>; destroyed: boolean }> = [];
let chartJsLoads = 0;
vi.mock('chart.js', () => {
  chartJsLoads++;
  class Chart {
    static registered: unknown[] = [];
    static register(...items: unknown[]): void {
      Chart.registered.push(...items);
    }
    private readonly rec: (typeof charts)[number];
    constructor(ctx: { canvas: unknown }, config: { data: { datasets: Array<{ label: string; data: unknown }> } }) {
      this.rec = { canvas: ctx.canvas, datasets: config.data.datasets, destroyed: false };
      charts.push(this.rec);
    }
    destroy(): void {
      this.rec.destroyed = true;
    }
  }
  const part = (name: string): { id: string } => ({ id: name });
  return { Chart, Legend: part('legend'), LinearScale: part('linear'), LineController: part('line'), LineElement: part('lineElement'), PointElement: part('point'), Tooltip: part('tooltip') };
});

const series: Series[] = [{ label: 'read IOPS', points: [{ x: 1_000, y: 5 }, { x: 2_000, y: 7 }] }];

beforeEach(() => {
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (this: HTMLCanvasElement) {
    return { canvas: this } as unknown as CanvasRenderingContext2D;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  charts.length = 0;
});

/** Lets the chart module's dynamic import and the drawing after it settle. */
async function loaded(): Promise<void> {
  await vi.waitFor(() => expect(chartJsLoads).toBe(1));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  flushSync();
}

describe('LineChart', () => {
  it('loads chart.js on its first chart and draws the series on its canvas; removed, the chart is destroyed', async () => {
    // Importing the component did not load chart.js.
    expect(chartJsLoads).toBe(0);
    const view = renderComponent(LineChart, { series, label: 'Performance' });
    await loaded();
    await vi.waitFor(() => expect(charts).toHaveLength(1));
    const canvas = view.target.querySelector('canvas');
    expect(charts[0]?.canvas).toBe(canvas);
    expect(charts[0]?.datasets.map((d) => [d.label, d.data])).toEqual([['read IOPS', series[0]?.points]]);
    // The text alternative does not wait for chart.js.
    expect(view.target.querySelector('[role="img"]')?.getAttribute('aria-label')).toMatch(/^Performance: /);
    view.unmount();
    expect(charts[0]?.destroyed).toBe(true);

    // A second chart reuses the module loaded once.
    renderComponent(LineChart, { series, label: 'Again' });
    await vi.waitFor(() => expect(charts).toHaveLength(2));
    expect(chartJsLoads).toBe(1);
  });

  it('draws nothing for a chart removed before chart.js arrived', async () => {
    const view = renderComponent(LineChart, { series, label: 'Gone' });
    view.unmount();
    await loaded();
    expect(charts).toHaveLength(0);
  });
});
