/** Builds out/ when a source is newer than its build stamp; false when the build failed. */
export function buildIfNeeded(log: (line: string) => void): boolean;
