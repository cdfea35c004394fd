import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { boundHeapGrowth, missingRuntimeFlags, RUNTIME_V8_FLAGS } from '../../../main/heap.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe("the heap bound of main's long-running processes", () => {
  it("leaves an admin's own --heap-growing-percent on node's command line alone", () => {
    expect(boundHeapGrowth(['--heap-growing-percent=80'])).toBe(false);
    expect(boundHeapGrowth(['--max-old-space-size=512', '--heap_growing_percent=20'])).toBe(false);
  });

  it('is set otherwise', () => {
    expect(boundHeapGrowth(['--enable-source-maps', '--max-old-space-size=512'])).toBe(true);
  });
});

describe('the V8 options the fleetdeck launchers pass', () => {
  it('names those node was started without, in either spelling', () => {
    expect(missingRuntimeFlags([])).toEqual([...RUNTIME_V8_FLAGS]);
    expect(missingRuntimeFlags(['--no-memory-reducer', '--max-old-space-size=512'])).toEqual(['--retain-maps-for-n-gc=16']);
    expect(missingRuntimeFlags(['--no_memory_reducer', '--retain_maps_for_n_gc=16'])).toEqual([]);
    // Another value is an admin's choice, but not the one the launchers pass.
    expect(missingRuntimeFlags(['--no-memory-reducer', '--retain-maps-for-n-gc=4'])).toEqual(['--retain-maps-for-n-gc=16']);
  });

  it('are what every launcher puts before the CLI entry, and node accepts them', () => {
    const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
    const flags = RUNTIME_V8_FLAGS.join(' ');
    expect(read('bin/fleetdeck.js').split('\n')[0]).toBe(`#!/usr/bin/env -S node ${flags}`);
    expect(read('build/bin/fleetdeck')).toContain(`exec "$runtime" ${flags} "$resources/app.asar/bin/fleetdeck.js" "$@"`);
    expect(read('build/bin/fleetdeck.cmd')).toContain(`"%~dp0..\\..\\Fleetdeck.exe" ${flags} "%~dp0..\\app.asar\\bin\\fleetdeck.js"`);
    // An option V8 does not know stops node before the script: these run it.
    expect(execFileSync(process.execPath, [...RUNTIME_V8_FLAGS, '-e', 'process.stdout.write("ran")'], { encoding: 'utf8' })).toBe('ran');
  });
});
