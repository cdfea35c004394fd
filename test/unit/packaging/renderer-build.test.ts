import { describe, expect, it } from 'vitest';

type Handler = (html: string, ctx: { bundle?: Record<string, unknown> }) => string;

/** The renderer build's plugin that puts the stylesheet into index.html. */
async function inlineStylesheet(): Promise<Handler> {
  const { default: configFor } = (await import('../../../vite.config.js')) as { default: (env: { mode: string; command: string }) => { plugins?: unknown[] } };
  const plugins = (configFor({ mode: 'production', command: 'build' }).plugins ?? []).flat(3) as Array<{ name?: string; transformIndexHtml?: { handler: Handler } }>;
  const plugin = plugins.find((p) => p?.name === 'fleetdeck:inline-stylesheet');
  if (!plugin?.transformIndexHtml) throw new Error('the renderer build has no fleetdeck:inline-stylesheet plugin');
  return plugin.transformIndexHtml.handler;
}

const page = (css: string): string =>
  `<head><script async type="module" crossorigin src="./assets/index-a1.js"></script>\n<link rel="stylesheet" crossorigin href="./assets/${css}">\n</head><body><div id="app"></div></body>`;
const asset = (fileName: string, source: string) => ({ type: 'asset', fileName, source });

describe('renderer build: the stylesheet inside index.html (one request fewer beside the first reads)', () => {
  it('replaces the link with the stylesheet itself and leaves no stylesheet file to serve', async () => {
    const inline = await inlineStylesheet();
    const css = ':root{--fg:#1b1f24}.a::after{content:"$& $1 </style>"}';
    const bundle: Record<string, unknown> = { 'assets/style-x1.css': asset('assets/style-x1.css', css), 'assets/index-a1.js': { type: 'chunk', fileName: 'assets/index-a1.js' } };
    const html = inline(page('style-x1.css'), { bundle });
    expect(html).not.toContain('rel="stylesheet"');
    // `$` patterns stay as written; a closing tag in a string cannot end the element early.
    expect(html).toContain('<style>:root{--fg:#1b1f24}.a::after{content:"$& $1 <\\/style>"}</style>');
    expect(html).toContain('<script async type="module" crossorigin src="./assets/index-a1.js"></script>');
    expect(Object.keys(bundle)).toEqual(['assets/index-a1.js']);
  });

  it('refuses a stylesheet that refers to other files, whose relative URLs would break once inlined', async () => {
    const inline = await inlineStylesheet();
    const bundle = { 'assets/style-x1.css': asset('assets/style-x1.css', '@font-face{src:url(./f.woff2)}') };
    expect(() => inline(page('style-x1.css'), { bundle })).toThrow(/refers to other files/);
  });

  it('refuses a build where index.html does not link the stylesheet it would inline', async () => {
    const inline = await inlineStylesheet();
    const bundle = { 'assets/style-x1.css': asset('assets/style-x1.css', 'a{}') };
    expect(() => inline(page('other-y2.css'), { bundle })).toThrow(/does not link assets\/style-x1\.css/);
  });
});

type BundleHook = (options: unknown, bundle: Record<string, unknown>) => void;

/** The renderer build's configuration and its plugin that marks the frame chunk for eager compilation. */
async function rendererConfig(): Promise<{ hint: BundleHook; build: { modulePreload?: unknown } }> {
  const { default: configFor } = (await import('../../../vite.config.js')) as {
    default: (env: { mode: string; command: string }) => { plugins?: unknown[]; build?: { modulePreload?: unknown } };
  };
  const config = configFor({ mode: 'production', command: 'build' });
  const plugins = (config.plugins ?? []).flat(3) as Array<{ name?: string; generateBundle?: { handler: BundleHook } }>;
  const plugin = plugins.find((p) => p?.name === 'fleetdeck:compile-hint');
  if (!plugin?.generateBundle) throw new Error('the renderer build has no fleetdeck:compile-hint plugin');
  return { hint: plugin.generateBundle.handler, build: config.build ?? {} };
}

const chunk = (fileName: string, moduleIds: string[], code: string) => ({ type: 'chunk', fileName, moduleIds, code });

describe('renderer build: the first frame compiled with its files (lazy compiles on the main thread)', () => {
  const here = (p: string): string => new URL(`../../../${p}`, import.meta.url).pathname;

  it("puts V8's compile hint on the first line of the entry's and the frame's chunks, before Vite's preamble, and on no other chunk", async () => {
    const { hint } = await rendererConfig();
    const frame = chunk('assets/frame-f1.js', [here('renderer/frame.ts')], 'const __vite__mapDeps=()=>[];\nexport{}');
    const entry = chunk('assets/index-a1.js', [here('renderer/lib/api.ts'), here('renderer/main.ts')], 'const __vite__mapDeps=()=>[];\nexport{}');
    const view = chunk('assets/View-v1.js', [here('renderer/views/View.svelte')], 'export{}');
    hint(undefined, { [frame.fileName]: frame, [view.fileName]: view, [entry.fileName]: entry });
    for (const c of [frame, entry]) {
      expect(c.code.split('\n')[0]).toBe('//# allFunctionsCalledOnLoad');
      expect(c.code).toContain('const __vite__mapDeps');
    }
    expect(view.code).toBe('export{}');
  });

  it('refuses a build without the chunks to mark', async () => {
    const { hint } = await rendererConfig();
    const entry = chunk('assets/index-a1.js', [here('renderer/main.ts')], '');
    expect(() => hint(undefined, { [entry.fileName]: entry })).toThrow(/no chunk holds .*renderer\/frame\.ts/);
  });

  it('leaves module preloading to the browser (no polyfill in the entry)', async () => {
    const { build } = await rendererConfig();
    expect(build.modulePreload).toMatchObject({ polyfill: false });
  });

  it("preloads nothing more for the entry's import of the frame (index.html links it), and a lazy chunk's imports as Vite would", async () => {
    const { build } = await rendererConfig();
    const resolve = (build.modulePreload as { resolveDependencies: (file: string, deps: string[], ctx: { hostId: string; hostType: 'js' }) => string[] }).resolveDependencies;
    const host = { hostId: 'assets/index-a1.js', hostType: 'js' as const };
    expect(resolve('assets/frame-f1_X.js', ['assets/frame-f1_X.js', 'assets/rolldown-runtime-r1.js'], host)).toEqual([]);
    expect(resolve('assets/SystemPage-s1.js', ['assets/SystemPage-s1.js', 'assets/AreaFrame-a1.js'], host)).toEqual(['assets/SystemPage-s1.js', 'assets/AreaFrame-a1.js']);
    // A view whose name merely ends in "frame" keeps its preloads.
    expect(resolve('assets/AreaFrame-a1.js', ['assets/AreaFrame-a1.js'], host)).toEqual(['assets/AreaFrame-a1.js']);
  });
});

describe("renderer build: the frame chunk holds only the first frame's code", () => {
  const root = new URL('../../../', import.meta.url).pathname;

  /** The renderer built in memory, once for the tests below. */
  let built: Promise<Array<{ type: string; fileName: string; moduleIds?: string[]; code?: string; imports?: string[]; dynamicImports?: string[] }>> | undefined;
  const outputs = (): NonNullable<typeof built> =>
    (built ??= (async () => {
      const { build } = await import('vite');
      const out = await build({ configFile: `${root}vite.config.ts`, mode: 'production', logLevel: 'silent', build: { write: false, minify: false } });
      return (Array.isArray(out) ? out : [out]).flatMap((o) => ('output' in o ? o.output : [])) as Awaited<NonNullable<typeof built>>;
    })());

  it('leaves the views, the catalog, charts and the helpers of later screens to chunks of their own', async () => {
    const frame = (await outputs()).find((c) => c.type === 'chunk' && c.moduleIds?.includes(`${root}renderer/frame.ts`));
    if (frame?.type !== 'chunk' || !frame.moduleIds) throw new Error('no chunk holds renderer/frame.ts');
    const ours = frame.moduleIds.filter((id) => id.startsWith(root) && !id.includes('/node_modules/')).map((id) => id.slice(root.length).replace(/\?.*$/, ''));
    // What the first frame shows is there; the split is not vacuous.
    for (const m of ['renderer/App.svelte', 'renderer/areas/list.ts', 'renderer/components/FleetTree.svelte', 'renderer/views/FleetOverview.svelte', 'renderer/lib/fleet-health.svelte.ts']) expect(ours).toContain(m);
    const later = [
      'app/catalog/index.ts',
      'app/catalog/validate.ts',
      'app/capacity/pools.ts',
      'app/capacity/forecast.ts',
      'app/capacity/plan.ts',
      'app/fleet/refresh-plan.ts',
      'app/health/rollup.ts',
      'app/health/system-health.ts',
      'renderer/lib/hardware.ts',
      'renderer/sites/session.ts',
      'renderer/lib/action-log.svelte.ts',
      'renderer/lib/download.ts',
      'renderer/reports/reports.svelte.ts',
      // Notices most windows never show: loaded only when there is one.
      'renderer/components/WhatIfPanel.svelte',
      'renderer/components/PolicyBanner.svelte',
      'renderer/components/SiteImportNotice.svelte',
      'renderer/components/Modal.svelte',
    ];
    expect(ours.filter((m) => later.includes(m) || m.startsWith('renderer/areas/') && m !== 'renderer/areas/list.ts')).toEqual([]);
    expect(frame.moduleIds.filter((id) => /\/node_modules\/(chart\.js|zod)\//.test(id))).toEqual([]);
  });

  it('links every chunk by a path relative to its own file, so the app://, file:// and loopback windows all load it', async () => {
    const all = await outputs();
    const chunks = all.filter((c) => c.type === 'chunk');
    const names = new Set(all.map((c) => c.fileName));
    // The frame and its lazy parts are several files: the check below is not vacuous.
    expect(chunks.length).toBeGreaterThan(20);
    expect(chunks.flatMap((c) => c.dynamicImports ?? []).length).toBeGreaterThan(20);
    for (const c of chunks) {
      const code = c.code ?? '';
      for (const dep of [...(c.imports ?? []), ...(c.dynamicImports ?? [])]) {
        expect(dep, `${c.fileName} loads ${dep} from its own folder`).toMatch(/^assets\/[^/]+\.js$/);
        expect(names.has(dep), `${c.fileName} loads ${dep}, which the build has`).toBe(true);
        expect(code, `${c.fileName} names ${dep} relative to itself`).toContain(`./${dep.slice('assets/'.length)}`);
      }
      // Never from the server's root or the build's folder: that breaks under app:// and file://.
      expect(code, c.fileName).not.toMatch(/["'`]\/?assets\//);
    }
  });
});
