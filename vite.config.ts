import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig, type ProxyOptions, type UserConfig } from 'vite';

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
 * The renderer bundle. `base: './'` makes every asset URL relative, so one build works from the
 * Electron custom protocol, from a file URL and from the loopback browser shell. Nothing is inlined
 * as script (the CSP allows only 'self' scripts), and the bundle has no remote fonts or CDNs.
 */
const renderer: UserConfig = {
  root: here('renderer'),
  base: './',
  // The root is renderer/, so point the plugin at the shared config one folder up.
  plugins: [svelte({ configFile: here('svelte.config.js') })],
  build: {
    outDir: here('out/renderer'),
    emptyOutDir: true,
    target: 'chrome130',
    // One stylesheet for the whole app, linked from index.html.
    cssCodeSplit: false,
    assetsInlineLimit: 0,
    // No source map in the build: it would be served with the app (2 MB of our sources) and is
    // excluded from installers anyway; `npm run dev:renderer` has maps for debugging.
    sourcemap: false,
    // The first script holds only the first frame (frame, tree, overview, palette); every other
    // view, each system area, the catalog's operations and zod are chunks loaded when first used
    // (renderer/lib/lazy.ts: at 1,000 systems, loading and running one 634 KiB script was most of
    // the first paint, issue 17). Read from disk or loopback, so a chunk costs little as a request.
    chunkSizeWarningLimit: 500,
  },
  server: shell ? { proxy: { '/ipc': toShell(shell), '/events': toShell(shell) } } : {},
};

/**
 * `vite build --mode preload`: the sandboxed preload cannot load modules, so it is bundled alone,
 * as CommonJS, with only `electron` left external.
 */
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

export default defineConfig(({ mode }) => (mode === 'preload' ? preload : renderer));
