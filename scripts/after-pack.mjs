// electron-builder's afterPack hook (electron-builder.yml): refuses a package whose native modules
// were built for another OS or CPU. Native modules are not rebuilt (`npmRebuild: false`), so the
// package holds the build machine's keytar and @libsql/<platform>-<arch>: a Windows or macOS
// installer built on Linux would carry Linux ELF files and die at the app's first `import` of libsql,
// before any window or dialog exists. Installers are built on their own OS; this makes that a rule.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** electron-builder's `Arch` enum (builder-util), by value. */
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/** Machine codes per binary format for each Node arch. */
const ELF_MACHINE = { ia32: 0x03, x64: 0x3e, armv7l: 0x28, arm64: 0xb7 };
const PE_MACHINE = { ia32: 0x014c, x64: 0x8664, armv7l: 0x01c4, arm64: 0xaa64 };
const MACHO_CPU = { x64: 0x01000007, arm64: 0x0100000c };

/**
 * What one native module file is: its format (`elf`, `pe`, `macho`, or `unknown`), the archs it
 * holds (a universal Mach-O holds several) and whether it registers as an N-API module (and not
 * through a Node-ABI-specific `node_register_module_v<N>`, which Electron refuses).
 * @param {Buffer} bytes the whole file
 * @returns {{ format: 'elf' | 'pe' | 'macho' | 'unknown', archs: string[], napi: boolean }}
 */
export function describeBinary(bytes) {
  const napi = bytes.includes('napi_register_module_v1') && !/node_register_module_v\d/.test(bytes.toString('latin1'));
  const archOf = (table, code) => Object.keys(table).filter((name) => table[name] === code);
  if (bytes.length >= 20 && bytes.readUInt32BE(0) === 0x7f454c46) {
    const little = bytes[5] === 1;
    const machine = little ? bytes.readUInt16LE(18) : bytes.readUInt16BE(18);
    return { format: 'elf', archs: archOf(ELF_MACHINE, machine), napi };
  }
  if (bytes.length >= 64 && bytes.toString('latin1', 0, 2) === 'MZ') {
    const pe = bytes.readUInt32LE(0x3c);
    if (pe + 6 <= bytes.length && bytes.toString('latin1', pe, pe + 4) === 'PE\0\0') return { format: 'pe', archs: archOf(PE_MACHINE, bytes.readUInt16LE(pe + 4)), napi };
  }
  if (bytes.length >= 8) {
    const magic = bytes.readUInt32LE(0);
    // MH_MAGIC_64 (little-endian, as both macOS CPUs write it) or FAT_MAGIC (big-endian).
    if (magic === 0xfeedfacf) return { format: 'macho', archs: archOf(MACHO_CPU, bytes.readUInt32LE(4)), napi };
    if (bytes.readUInt32BE(0) === 0xcafebabe) {
      const count = bytes.readUInt32BE(4);
      const archs = [];
      for (let i = 0; i < count && 8 + i * 20 + 4 <= bytes.length; i++) archs.push(...archOf(MACHO_CPU, bytes.readUInt32BE(8 + i * 20)));
      return { format: 'macho', archs, napi };
    }
  }
  return { format: 'unknown', archs: [], napi };
}

/** The binary format each target OS loads, and each format's name in a message. */
const FORMAT_OF = { linux: 'elf', win32: 'pe', darwin: 'macho', mas: 'macho' };
const FORMAT_NAME = { elf: 'a Linux (ELF) file', pe: 'a Windows (PE) file', macho: 'a macOS (Mach-O) file', unknown: 'not a recognised binary' };

/**
 * The problems of a package's native modules for one target, as sentences (empty when none): a
 * file of another format or arch, a module that is not N-API, keytar or the target's own
 * `@libsql/<platform>-<arch>` package missing, or a libsql package for another target.
 * @param {{ platform: string, arch: string, files: Array<{ path: string, bytes: Buffer }> }} target
 *   `files`: every `.node` file of the package, `path` relative to the unpacked app folder
 * @returns {string[]}
 */
export function nativeModuleProblems({ platform, arch, files }) {
  const problems = [];
  const format = FORMAT_OF[platform];
  const wanted = arch === 'universal' ? ['x64', 'arm64'] : [arch];
  const nodePlatform = platform === 'mas' ? 'darwin' : platform;
  for (const file of files) {
    const d = describeBinary(file.bytes);
    if (d.format !== format) problems.push(`${file.path} is ${FORMAT_NAME[d.format]}, but this is a ${platform} package`);
    else if (!wanted.every((a) => d.archs.includes(a))) problems.push(`${file.path} is built for ${d.archs.join(', ') || 'an unknown CPU'}, but this package is for ${wanted.join(' and ')}`);
    if (!d.napi) problems.push(`${file.path} is not an N-API module: Electron would refuse it (native modules are not rebuilt for Electron)`);
  }
  const paths = files.map((f) => f.path.split(sep).join('/'));
  if (!paths.some((p) => p.endsWith('node_modules/keytar/build/Release/keytar.node'))) problems.push('keytar.node is missing: the app could not reach the OS keychain');
  const libsql = [...new Set(paths.map((p) => /node_modules\/@libsql\/([^/]+)\//.exec(p)?.[1]).filter((name) => name !== undefined))];
  const own = (name) => wanted.some((a) => name === `${nodePlatform}-${a}` || name.startsWith(`${nodePlatform}-${a}-`));
  if (!libsql.some(own)) problems.push(`no @libsql/${nodePlatform}-${wanted.join('/')} package: the store could not load`);
  for (const name of libsql.filter((n) => !own(n))) problems.push(`@libsql/${name} is for another platform or CPU than ${nodePlatform}-${wanted.join('/')}`);
  return problems;
}

/** Every `.node` file under a folder. */
function nodeFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.node'))
    .map((e) => join(e.parentPath, e.name));
}

/**
 * The hook: checks the unpacked native modules of the package just laid out in `appOutDir`.
 * @param {{ appOutDir: string, electronPlatformName: string, arch: number }} context
 * @throws Error listing every problem, which stops the build before an installer is made.
 */
export async function afterPack(context) {
  const arch = ARCH_NAMES[context.arch] ?? String(context.arch);
  const unpacked = nodeFiles(context.appOutDir).filter((f) => f.includes(`app.asar.unpacked${sep}`));
  const files = unpacked.map((path) => ({ path: relative(context.appOutDir, path), bytes: readFileSync(path) }));
  const problems = nativeModuleProblems({ platform: context.electronPlatformName, arch, files });
  if (!problems.length) {
    console.log(`  • afterPack: ${files.length} native modules are ${context.electronPlatformName}-${arch} N-API modules`);
    return;
  }
  throw new Error(
    `afterPack: this ${context.electronPlatformName}-${arch} package carries native modules it cannot load (they are not rebuilt; build each OS's installers on that OS and CPU, after npm ci there):\n  - ${problems.join('\n  - ')}`,
  );
}

export default afterPack;
