import { afterEach, describe, expect, it, vi } from 'vitest';

// The overview's first frame formats hundreds of figures and times (cold start): each
// locale format is built once, on first use, and none at load.
const { NumberFormat, DateTimeFormat, Collator } = Intl;
afterEach(() => {
  Intl.NumberFormat = NumberFormat;
  Intl.DateTimeFormat = DateTimeFormat;
  Intl.Collator = Collator;
  vi.resetModules();
});

/** Counts the formatters built from now on (they still format as the real ones). */
function countFormatters(): { numbers: number; dates: number; collators: number } {
  const built = { numbers: 0, dates: 0, collators: 0 };
  Intl.NumberFormat = class extends NumberFormat {
    constructor(...args: ConstructorParameters<typeof NumberFormat>) {
      super(...args);
      built.numbers++;
    }
  } as typeof Intl.NumberFormat;
  Intl.DateTimeFormat = class extends DateTimeFormat {
    constructor(...args: ConstructorParameters<typeof DateTimeFormat>) {
      super(...args);
      built.dates++;
    }
  } as typeof Intl.DateTimeFormat;
  Intl.Collator = class extends Collator {
    constructor(...args: ConstructorParameters<typeof Collator>) {
      super(...args);
      built.collators++;
    }
  } as typeof Intl.Collator;
  return built;
}

describe('display formats', () => {
  it('builds no formatter on load, one number format per precision however many figures, and formats as the locale does', async () => {
    const built = countFormatters();
    const { formatNumber, formatTimeFull, formatTimeSeconds } = await import('../../../renderer/lib/format.js');
    expect(built).toEqual({ numbers: 0, dates: 0, collators: 0 });

    for (let i = 0; i < 1000; i++) formatNumber(i * 1.2345, 2);
    expect(formatNumber(1234.5)).toBe(new NumberFormat(undefined, { maximumFractionDigits: 0 }).format(1234.5));
    expect(formatNumber(undefined)).toBe('—');
    expect(formatNumber(Number.NaN)).toBe('—');
    expect(built.numbers).toBe(2);
    expect(formatNumber(1234567.891, 2)).toBe(new NumberFormat(undefined, { maximumFractionDigits: 2 }).format(1234567.891));

    const at = '2025-03-01T10:00:00Z';
    expect(formatTimeFull(at)).toBe(new DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at)));
    expect(formatTimeFull('2025-03-02T10:00:00Z')).not.toBe(formatTimeFull(at));
    // The seconds format (the action log's) is not built by a view that does not use it.
    expect(built.dates).toBe(1);
    expect(formatTimeSeconds(at)).toBe(new DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(at)));
    expect(built.dates).toBe(2);
  });

  it('builds the collator and the whole-number format once, when warmed, and orders names as localeCompare does', async () => {
    const built = countFormatters();
    const { warmFormats } = await import('../../../renderer/lib/locale-formats.js');
    const { compareText, formatNumber } = await import('../../../renderer/lib/format.js');
    warmFormats();
    expect(built).toEqual({ numbers: 1, dates: 0, collators: 1 });
    const names = ['b', 'a', 'A', 'Ölberg', 'Olberg', 'atlas-10', 'atlas-9', 'Zeta', 'zeta', 'é', 'e'];
    expect([...names].sort(compareText)).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect([formatNumber(0), formatNumber(42), formatNumber(1234)]).toEqual([0, 42, 1234].map((n) => new NumberFormat(undefined, { maximumFractionDigits: 0 }).format(n)));
    // However many names and figures, nothing more is built.
    for (let i = 0; i < 1000; i++) compareText(`s${i}`, `s${i + 1}`);
    warmFormats();
    expect(built).toEqual({ numbers: 1, dates: 0, collators: 1 });
  });
});
