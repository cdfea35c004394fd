import { describe, expect, it } from 'vitest';
import { clearShellToken, readEvents, shellTokenOf, takeShellToken } from '../../../../renderer/lib/api.js';

describe('takeShellToken', () => {
  it('moves the token from the address bar into memory, keeping the rest of the address', () => {
    const replaced: string[] = [];
    const win = {
      location: { href: 'http://127.0.0.1:4000/?token=T0K3N&x=1#/system/a' },
      history: { state: { n: 1 }, replaceState: (_s: unknown, _t: string, url: string) => replaced.push(url) },
    } as unknown as Pick<Window, 'location' | 'history'>;
    expect(takeShellToken(win)).toBe('T0K3N');
    expect(replaced).toEqual(['/?x=1#/system/a']);
  });

  it('leaves an address without a token alone', () => {
    const win = { location: { href: 'app://fleetdeck/index.html' }, history: { replaceState: () => expect.unreachable() } } as unknown as Pick<Window, 'location' | 'history'>;
    expect(takeShellToken(win)).toBeUndefined();
  });
});

describe('shellTokenOf and clearShellToken', () => {
  it('reads the token without touching the address, then clears it from the address alone', () => {
    const replaced: string[] = [];
    const win = {
      location: { href: 'http://127.0.0.1:4000/?x=1&token=T0K3N#/overview' },
      history: { state: null, replaceState: (_s: unknown, _t: string, url: string) => replaced.push(url) },
    } as unknown as Pick<Window, 'location' | 'history'>;
    expect(shellTokenOf(win)).toBe('T0K3N');
    expect(replaced).toEqual([]);
    clearShellToken(win);
    expect(replaced).toEqual(['/?x=1#/overview']);
  });

  it('clears nothing from an address without a token', () => {
    const win = { location: { href: 'app://fleetdeck/index.html' }, history: { replaceState: () => expect.unreachable() } } as unknown as Pick<Window, 'location' | 'history'>;
    expect(shellTokenOf(win)).toBeUndefined();
    clearShellToken(win);
  });
});

describe('readEvents', () => {
  it('reads server-sent events split anywhere across chunks, skipping comments', async () => {
    const text = ': connected\n\nid: 7\nevent: fleet:status\ndata: {"state":"ok","name":"Zürich"}\n\n: keep-alive\n\nevent: fleet:notifications\ndata: {"count":2}\n\n';
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        // Cut mid-line and mid-character (ü is two bytes).
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    const got: Array<[string, unknown, string | undefined]> = [];
    await readEvents(body, (event, data, id) => got.push([event, JSON.parse(data), id]));
    expect(got).toEqual([
      ['fleet:status', { state: 'ok', name: 'Zürich' }, '7'],
      ['fleet:notifications', { count: 2 }, undefined],
    ]);
  });
});
