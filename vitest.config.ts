import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

/**
 * Every vitest suite, as two projects of one run (`npx vitest run`; one of them:
 * `--project node` or `--project renderer`).
 * - node: unit, integration and reliability tests (`*.test.ts`), in Node.
 * - renderer: component tests (`*.test.svelte.ts`, so runes work inside them) in jsdom, compiled
 *   with the Svelte plugin and the browser build of Svelte (`mount` does not exist in its server build).
 */
export default defineConfig({
  test: {
    // Generous: a limit is there so a hang fails, and on a shared, loaded machine (npm run bench
    // beside npm test) a refresh against the simulator takes several times its quiet duration.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start real servers; two workers match the two cores of these machines.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/reliability/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        plugins: [svelte()],
        resolve: { conditions: ['browser'] },
        test: {
          name: 'renderer',
          include: ['test/unit/renderer/**/*.test.svelte.ts'],
          environment: 'jsdom',
          setupFiles: ['test/unit/renderer/setup.ts'],
        },
      },
    ],
  },
});
