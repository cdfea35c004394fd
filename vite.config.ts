import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig, type Plugin, type ProxyOptions, type UserConfig } from 'vite';

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

/**
 * `FLEETDECK_SHELL=http://127.0.0.1:PORT npx vite` serves the renderer with hot reload against a
 * running browser shell (`npm run web -- --demo`): /ipc and /events go to the shell, with Host and
 * Origin rewritten to its loopback address, which is all it accepts. Open the dev URL with the
 * shell's `?token=…` (the page moves it into memory, as in the shell).
 */
const shell = process.env.FLEETDECK_SHELL;
const toShell = (target: string): ProxyOptions => ({
  target,
  changeOrigin: true,
  configure: (proxy) => proxy.on('proxyReq', (req) => req.setHeader('origin', new URL(target).origin)),
});

/**
 * The first frame in two scripts. The entry (`renderer/main.ts`) holds only the transport and sends
 * the first reads; the frame (`renderer/frame.ts`: App and everything it imports statically, Svelte's
 * runtime and the shared helpers the lazy views import from it too) is one chunk, linked as a
 * modulepreload from index.html so both load side by side. The rule: the frame stays one chunk. The
 * browser shell speaks HTTP/1.1, six connections per host, so a frame split into many files would
 * queue its parts behind each other, and the first reads behind them.
 */
const ENTRY = here('renderer/main.ts');
const FRAME = here('renderer/frame.ts');

interface GraphInfo {
  importedIds: readonly string[];
}
/** Every module `root` imports statically, itself included. */
function staticClosure(root: string, info: (id: string) => GraphInfo | null): Set<string> {
  const seen = new Set<string>();
  const todo = [root];
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    todo.push(...(info(id)?.importedIds ?? []));
  }
  return seen;
}
/** The frame chunk's modules: the frame's static closure less the entry's (which the frame imports from the entry). */
const frameModules = new WeakMap<object, Set<string>>();
function frameChunkName(id: string, ctx: { getModuleInfo(id: string): GraphInfo | null }): string | null {
  let frame = frameModules.get(ctx);
  if (!frame) {
    const info = (m: string): GraphInfo | null => ctx.getModuleInfo(m);
    const entry = staticClosure(ENTRY, info);
    frame = new Set([...staticClosure(FRAME, info)].filter((m) => !entry.has(m)));
    frameModules.set(ctx, frame);
  }
  return frame.has(id) ? 'frame' : null;
}

/** Whether a chunk's file name (`assets/frame-….js`) is the frame chunk's. */
const isFrameChunk = (file: string): boolean => /(^|\/)frame-[\w-]+\.js$/.test(file);

/** index.html links the frame chunk (and what it imports besides the entry) as modulepreloads. */
const preloadFrame: Plugin = {
  name: 'fleetdeck:preload-frame',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(_html, ctx) {
      const chunks = new Map(Object.values(ctx.bundle ?? {}).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])));
      const frame = [...chunks.values()].find((c) => c.moduleIds.includes(FRAME));
      if (!frame) throw new Error('renderer build: no chunk holds renderer/frame.ts');
      const files = new Set<string>();
      const add = (fileName: string): void => {
        const c = chunks.get(fileName);
        if (!c || c.isEntry || files.has(fileName)) return;
        files.add(fileName);
        c.imports.forEach(add);
      };
      add(frame.fileName);
      return [...files].map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${f}` }, injectTo: 'head' as const }));
    },
  },
};

/**
 * The stylesheet goes into index.html as a `<style>` element (the CSP allows inline styles, not
 * inline scripts): one request fewer while the first reads are on their way. The browser shell
 * speaks HTTP/1.1, six connections per host: with the stylesheet, the frame chunk and Rolldown's
 * runtime still loading when the entry sends the first reads, a read would wait for a connection. It
 * holds no `url()`, so nothing in it is relative to `assets/`.
 */
const inlineStylesheet: Plugin = {
  name: 'fleetdeck:inline-stylesheet',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      const bundle = ctx.bundle ?? {};
      const css = Object.values(bundle).flatMap((a) => (a.type === 'asset' && a.fileName.endsWith('.css') ? [a] : []));
      if (css.length !== 1) throw new Error(`renderer build: expected one stylesheet, found ${css.length}`);
      const sheet = css[0]!;
      const text = typeof sheet.source === 'string' ? sheet.source : new TextDecoder().decode(sheet.source);
      if (/url\(|@import/.test(text)) throw new Error('renderer build: the stylesheet refers to other files; it cannot be inlined as it is');
      const link = new RegExp(`<link rel="stylesheet"[^>]*href="\\./${sheet.fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`);
      if (!link.test(html)) throw new Error(`renderer build: index.html does not link ${sheet.fileName}`);
      delete bundle[sheet.fileName];
      // A function replacement: `$` in the stylesheet stays as it is.
      return html.replace(link, () => `<style>${text.replace(/<\/style/gi, '<\\/style')}</style>`);
    },
  },
};

/**
 * Most functions of the first frame's two scripts run before that frame (the transport; Svelte's
 * runtime, the frame's components, the roll-ups it shows): V8's explicit compile hint
 * (`//# allFunctionsCalledOnLoad`, on the file's first line, where V8 looks for it) has them
 * compiled with the file, on the thread that streams it in, rather than one at a time on the page's
 * main thread as each is first called during the evaluation, mount and first render (some 600
 * functions). Added last, after Vite's own preamble and the minifier
 * (which drops comments); the chunks loaded on demand stay lazily compiled.
 */
const compileHint: Plugin = {
  name: 'fleetdeck:compile-hint',
  apply: 'build',
  generateBundle: {
    order: 'post',
    handler(_options, bundle) {
      for (const root of [ENTRY, FRAME]) {
        const chunk = Object.values(bundle).find((c) => c.type === 'chunk' && c.moduleIds.includes(root));
        if (chunk?.type !== 'chunk') throw new Error(`renderer build: no chunk holds ${root}`);
        chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`;
      }
    },
  },
};

/**
 * The renderer bundle. `base: './'` makes every asset URL relative, so one build works from the
 * Electron custom protocol, from a file URL and from the loopback browser shell. Nothing is inlined
 * as script (the CSP allows only 'self' scripts), and the bundle has no remote fonts or CDNs.
 */
const renderer: UserConfig = {
  root: here('renderer'),
  base: './',
  // The root is renderer/, so point the plugin at the shared config one folder up.
  plugins: [svelte({ configFile: here('svelte.config.js') }), preloadFrame, inlineStylesheet, compileHint],
  build: {
    outDir: here('out/renderer'),
    emptyOutDir: true,
    target: 'chrome130',
    // One stylesheet for the whole app, inlined into index.html (inlineStylesheet).
    cssCodeSplit: false,
    assetsInlineLimit: 0,
    // No source map in the build: it would be served with the app (2 MB of our sources) and is
    // excluded from installers anyway; `npm run dev:renderer` has maps for debugging.
    sourcemap: false,
    // The first script holds only the first frame (frame, tree, overview); every other
    // view, each system area, the catalog's operations and zod are chunks loaded when first used
    // (renderer/lib/lazy.ts): one script holding them all would take most of the first paint at
    // 1,000 systems to load and run. Read from disk or loopback, so a chunk costs little as a request.
    chunkSizeWarningLimit: 500,
    // Chromium and Electron preload modules natively: Vite's polyfill (a query of the page's links and
    // a mutation observer, in the entry, before the first reads leave) is work the window never needs.
    // The entry's import of the frame needs no preload of its own: index.html links the frame and
    // what it imports (preloadFrame), and Vite's helper would look for those links again in the
    // entry's task.
    modulePreload: { polyfill: false, resolveDependencies: (file, deps) => (isFrameChunk(file) ? [] : deps) },
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: frameChunkName, debugName: 'frame', includeDependenciesRecursively: false }] } } },
  },
  server: shell ? { proxy: { '/ipc': toShell(shell), '/events': toShell(shell) } } : {},
};

/**
 * `vite build --mode preload`: the sandboxed preload cannot load modules, so it is bundled alone,
 * as CommonJS, with only `electron` left external.
 */
const MAIN_EXTERNAL = ['electron', 'electron-updater', 'keytar', 'libsql', 'undici', 'pdf-lib', 'selfsigned'];

const preload: UserConfig = {
  build: {
    outDir: here('out/preload'),
    emptyOutDir: true,
    minify: false,
    target: 'node20',
    lib: { entry: here('main/electron/preload.ts'), formats: ['cjs'], fileName: () => 'preload.cjs' },
    rollupOptions: { external: ['electron'] },
  },
};

/**
 * `vite build --mode main`: the main process bundled for start. A start from `out/main` loaded
 * about 210 files (our ~100 modules and zod's 100), each resolved, read and compiled on its own
 * before the first byte was served; one file per entry, with what is imported on first use in
 * chunks of its own, loads in a fraction of that. `tsc -b` stays the type checker (and still
 * compiles `out/main` for the benches that load a module alone).
 * Entries keep `out/main`'s layout two folders below `out/`, as do the chunks, so the paths the code
 * finds from its own file (`../../renderer/`, `../../preload/preload.cjs`, package.json above it)
 * resolve the same from either. Left external: Electron; keytar and libsql (native, loaded from
 * node_modules, their `.node` files unpacked from the asar); undici and pdf-lib (CommonJS, already
 * loaded on first use: the first request, the first PDF); selfsigned (the demo fleet's certificate).
 */
const mainBundle: UserConfig = {
  build: {
    ssr: true,
    outDir: here('out/bundle'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    // Stack traces name our sources (`node --enable-source-maps`); the maps stay out of installers.
    sourcemap: true,
    copyPublicDir: false,
    rollupOptions: {
      input: { 'shells/web': here('main/shells/web.ts'), 'electron/main': here('main/electron/main.ts'), 'cli/main': here('main/cli/main.ts') },
      external: MAIN_EXTERNAL,
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
  // Everything else from node_modules (zod) goes into the bundle.
  ssr: { noExternal: true, external: MAIN_EXTERNAL },
};

export default defineConfig(({ mode }) => (mode === 'preload' ? preload : mode === 'main' ? mainBundle : renderer));
