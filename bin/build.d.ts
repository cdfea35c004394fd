/** Compiles out/ with `tsc -b main` and rebuilds the Vite bundles when stale; false when a build failed. */
export function build(log: (line: string) => void): boolean;
/** The entries `vite build --mode main` writes: the browser shell, the Electron main process, the CLI. */
export const MAIN_BUNDLES: readonly string[];
/** The environment the builds run in: the caller's without NODE_ENV (so `vite build` always makes the production bundle). */
export function buildEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
