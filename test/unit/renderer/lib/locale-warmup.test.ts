import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmLocaleData } from '../../../../renderer/lib/locale-warmup.js';

/** A stand-in for the page's Worker: records what was started and whether it was stopped. */
class FakeWorker {
  static started: FakeWorker[] = [];
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  terminated = false;
  constructor(
    readonly url: URL | string,
    readonly options?: WorkerOptions,
  ) {
    FakeWorker.started.push(this);
  }
  terminate(): void {
    this.terminated = true;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeWorker.started = [];
});

describe('warmLocaleData: the locale data loaded on a worker thread', () => {
  it('starts the locale-data worker once and stops it when it says it is done', () => {
    vi.stubGlobal('Worker', FakeWorker);
    warmLocaleData();
    expect(FakeWorker.started).toHaveLength(1);
    const w = FakeWorker.started[0]!;
    expect(String(w.url)).toMatch(/locale-data\.worker\.ts$/);
    expect(w.terminated).toBe(false);
    w.onmessage?.(new MessageEvent('message', { data: null }));
    expect(w.terminated).toBe(true);
  });

  it('stops a worker that fails, and changes nothing where no worker can start', () => {
    vi.stubGlobal('Worker', FakeWorker);
    warmLocaleData();
    FakeWorker.started[0]!.onerror?.(new Event('error'));
    expect(FakeWorker.started[0]!.terminated).toBe(true);

    vi.stubGlobal('Worker', class {
      constructor() {
        throw new DOMException('refused by the page policy', 'SecurityError');
      }
    });
    expect(() => warmLocaleData()).not.toThrow();
    vi.stubGlobal('Worker', undefined);
    expect(() => warmLocaleData()).not.toThrow();
  });
});

describe('the locale-data worker', () => {
  it('builds the objects the first frame uses (the name collator, the whole-number format) and then says so', async () => {
    const posted: unknown[] = [];
    vi.stubGlobal('postMessage', (m: unknown) => posted.push(m));
    const built = { collators: 0, numbers: 0 };
    const { Collator, NumberFormat } = Intl;
    vi.stubGlobal('Intl', {
      ...Intl,
      Collator: class extends Collator {
        constructor(...a: ConstructorParameters<typeof Collator>) {
          super(...a);
          built.collators++;
        }
      },
      NumberFormat: class extends NumberFormat {
        constructor(...a: ConstructorParameters<typeof NumberFormat>) {
          super(...a);
          built.numbers++;
        }
      },
    });
    vi.resetModules();
    await import('../../../../renderer/lib/locale-data.worker.js');
    expect(built).toEqual({ collators: 1, numbers: 1 });
    expect(posted).toEqual([null]);
  });
});
