import { afterEach, describe, expect, it, vi } from 'vitest';

// The overview's first frame formats hundreds of figures and times (cold start): each
// locale format is built once, on first use, and none at load.
const { NumberFormat, DateTimeFormat, Collator, PluralRules } = Intl;
/** Intl with its plural rules replaceable (the lib types it read-only). */
const intl = Intl as { PluralRules: typeof Intl.PluralRules };
afterEach(() => {
  Intl.NumberFormat = NumberFormat;
  Intl.DateTimeFormat = DateTimeFormat;
  Intl.Collator = Collator;
  intl.PluralRules = PluralRules;
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

  it('orders ASCII names and writes small whole numbers without building a locale object in a locale that agrees, and builds both after the first frame', async () => {
    const built = countFormatters();
    const { buildFormats, warmFormats } = await import('../../../renderer/lib/locale-formats.js');
    const { compareText, formatNumber } = await import('../../../renderer/lib/format.js');
    // The test's locale (en-US) orders ASCII as the root collation: the first frame needs neither.
    warmFormats();
    expect([compareText('b', 'a'), compareText('a', 'b'), compareText('a', 'a'), compareText('a', 'A')]).toEqual([1, -1, 0, -1]);
    expect([formatNumber(0), formatNumber(42), formatNumber(999)]).toEqual(['0', '42', '999']);
    expect(built).toEqual({ numbers: 0, dates: 0, collators: 0 });
    // What it cannot write or order alone is the locale's.
    expect(formatNumber(1234)).toBe(new NumberFormat(undefined, { maximumFractionDigits: 0 }).format(1234));
    expect(compareText('Ölberg', 'Olberg')).toBe(new Collator().compare('Ölberg', 'Olberg'));
    expect(built).toEqual({ numbers: 1, dates: 0, collators: 1 });
    // Built once; buildFormats (after the first frame) builds only what is still missing.
    buildFormats();
    expect(built).toEqual({ numbers: 1, dates: 0, collators: 1 });
  });

  it('builds after the first frame the collator and the whole-number format when the first frame did without them', async () => {
    const built = countFormatters();
    const { buildFormats } = await import('../../../renderer/lib/locale-formats.js');
    buildFormats();
    expect(built).toEqual({ numbers: 1, dates: 0, collators: 1 });
  });

  it('builds, when warmed, the collator and the whole-number format in a locale whose order or digits are its own, and orders names by them', async () => {
    const built = countFormatters();
    // Danish orders "aa" after "z": its default locale gets no ASCII shortcut.
    intl.PluralRules = class extends PluralRules {
      override resolvedOptions(): Intl.ResolvedPluralRulesOptions {
        return { ...super.resolvedOptions(), locale: 'da-DK' };
      }
    } as typeof Intl.PluralRules;
    const { warmFormats } = await import('../../../renderer/lib/locale-formats.js');
    const { compareText, formatNumber } = await import('../../../renderer/lib/format.js');
    warmFormats();
    expect(built).toEqual({ numbers: 1, dates: 0, collators: 1 });
    expect(formatNumber(42)).toBe(new NumberFormat(undefined, { maximumFractionDigits: 0 }).format(42));
    expect(compareText('b', 'a')).toBe(1);
    expect(built).toEqual({ numbers: 1, dates: 0, collators: 1 });
  });
});
