import { defineConfig } from 'vite';

// The sandboxed preload cannot load modules: it is bundled alone, as CommonJS, with only
// `electron` left external.
export default defineConfig({
  build: {
    outDir: 'out/preload',
    emptyOutDir: true,
    minify: false,
    target: 'node20',
    lib: { entry: 'main/electron/preload.ts', formats: ['cjs'], fileName: () => 'preload.cjs' },
    rollupOptions: { external: ['electron'] },
  },
});
