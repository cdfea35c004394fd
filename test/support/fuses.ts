import { createRequire } from 'node:module';

/** @electron/fuses, as electron-builder (app-builder-lib), which flips the fuses, resolves it. */
const fuses = createRequire(createRequire(import.meta.url).resolve('app-builder-lib/package.json'))('@electron/fuses') as {
  getCurrentFuseWire(binary: string): Promise<Record<number, number>>;
  FuseV1Options: Record<string, number>;
};

/** What the packaged binary must say, by electron-builder's names for the fuses (electronFuses). */
export const PACKAGED_FUSES = {
  runAsNode: true,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  grantFileProtocolExtraPrivileges: false,
} as const;

/**
 * The fuses of an Electron binary (for macOS, any file inside the .app), by electron-builder's
 * names: each is a byte after Electron's sentinel, '1' on and '0' off.
 */
export async function fuseStates(binary: string): Promise<Record<keyof typeof PACKAGED_FUSES, boolean>> {
  const wire = await fuses.getCurrentFuseWire(binary);
  const names = Object.keys(PACKAGED_FUSES) as Array<keyof typeof PACKAGED_FUSES>;
  return Object.fromEntries(names.map((name) => [name, wire[fuses.FuseV1Options[name.charAt(0).toUpperCase() + name.slice(1)]!] === '1'.charCodeAt(0)])) as Record<keyof typeof PACKAGED_FUSES, boolean>;
}
