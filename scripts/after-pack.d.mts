/** What one native module file is (format, archs it holds, whether it registers as N-API only). */
export function describeBinary(bytes: Buffer): { format: 'elf' | 'pe' | 'macho' | 'unknown'; archs: string[]; napi: boolean };
/** The problems of a package's native modules for one target, as sentences; empty when none. */
export function nativeModuleProblems(target: { platform: string; arch: string; files: Array<{ path: string; bytes: Buffer }> }): string[];
/** electron-builder's afterPack hook: throws when a packaged native module is not for the target. */
export function afterPack(context: { appOutDir: string; electronPlatformName: string; arch: number }): Promise<void>;
export default afterPack;
