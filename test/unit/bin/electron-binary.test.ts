import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronArgs, electronBinary } from '../../../bin/electron-binary.js';

describe('launching the app on Electron (npm start, npm run test:electron)', () => {
  it('passes Electron the app folder, so the app is named Fleetdeck (and so is its userData folder), not "Electron"', () => {
    const args = electronArgs(['--site', 'paris']);
    expect(args.slice(1)).toEqual(['--site', 'paris']);
    const pkg = JSON.parse(readFileSync(join(args[0]!, 'package.json'), 'utf8')) as { productName: string; main: string };
    expect(pkg.productName).toBe('Fleetdeck');
    expect(pkg.main).toBe('out/bundle/electron/main.js');
  });

  it('says why when the runtime cannot be had', () => {
    expect(electronBinary({ FLEETDECK_NO_ELECTRON: '1' })).toEqual({ reason: 'FLEETDECK_NO_ELECTRON=1' });
  });
});
