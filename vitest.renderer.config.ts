import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

/**
 * Component tests of the renderer: jsdom plus the Svelte compiler. Kept apart from the root
 * vitest.config.ts (node environment, no Svelte plugin). Test files end in `.test.svelte.ts` so
 * the root run, which collects `*.test.ts`, leaves them alone, and so runes work inside them.
 */
export default defineConfig({
  plugins: [svelte()],
  // The browser build of Svelte: `mount` does not exist in its server build.
  resolve: { conditions: ['browser'] },
  test: {
    include: ['test/unit/renderer/**/*.test.svelte.ts'],
    environment: 'jsdom',
    setupFiles: ['test/unit/renderer/setup.ts'],
    testTimeout: 20_000,
  },
});
