import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** Shared by Vite, vitest and svelte-check. Runes mode everywhere: no legacy component syntax. */
export default {
  preprocess: vitePreprocess({ script: false }),
  compilerOptions: { runes: true },
};
