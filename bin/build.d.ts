/** Compiles out/ with `tsc -b main` and rebuilds the Vite bundles when stale; false when a build failed. */
export function build(log: (line: string) => void): boolean;
