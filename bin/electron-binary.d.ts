/** The project folder: what Electron is given, so it reads package.json (name, main) as packaged. */
export const APP_DIR: string;
/** The Electron binary, or the reason it cannot be had. */
export function electronBinary(env?: NodeJS.ProcessEnv): { path: string; reason?: undefined } | { path?: undefined; reason: string };
/** Electron's arguments for the app: the app folder, then the app's own flags. */
export function electronArgs(args: readonly string[]): string[];
