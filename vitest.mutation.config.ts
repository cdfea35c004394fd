import { defineConfig } from 'vitest/config';

/**
 * The tests StrykerJS runs against each mutant (`npm run test:mutation`): the unit tests of the
 * mutated rules and the client's TLS tests, in one Node project (the runner takes no projects).
 * Integration suites that start a whole runtime are left out: they import every module, so each
 * mutant would run them all.
 * MUTATION_TESTS (comma-separated globs) narrows the set for a run over one module, e.g.
 * `MUTATION_TESTS='test/unit/app/redact.test.ts' npx stryker run --mutate app/redact.ts`.
 */
const only = process.env.MUTATION_TESTS?.split(',').filter((glob) => glob.trim() !== '');

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    environment: 'node',
    include: only ?? [
      'test/unit/app/redact*.test.ts',
      'test/unit/app/health/**/*.test.ts',
      'test/unit/app/capacity/**/*.test.ts',
      'test/unit/app/smart/**/*.test.ts',
      'test/unit/app/alerts/**/*.test.ts',
      'test/unit/app/reports/**/*.test.ts',
      'test/unit/app/fleet/**/*.test.ts',
      'test/unit/main/store/action-log*.test.ts',
      'test/unit/main/core/bulk*.test.ts',
      'test/unit/main/client/tls*.test.ts',
      'test/integration/client/errors.test.ts',
    ],
  },
});
