import { describe, expect, it } from 'vitest';
import { normaliseAnswer } from '../../../../app/answers/normalise.js';
import { clockOffsetOf, dateHeaderOffset, describeClockOffset, freshRecordOffset, isUnreadableTime, readTime, slashedDayFirst, timeText, wireTimeOf } from '../../../../app/answers/time.js';
import { getOperation } from '../../../../app/catalog/index.js';

const T = Date.UTC(2023, 10, 14, 22, 13, 20);

describe('readTime', () => {
  it.each<[unknown, number, boolean]>([
    ['2023-11-14T22:13:20', T, false],
    ['2023-11-14 22:13:20', T, false],
    ['2023-11-14T22:13:20Z', T, true],
    ['2023-11-14T23:13:20+01:00', T, true],
    ['2023-11-14T17:13:20-0500', T, true],
    ['2023-11-14T22:13:20.1234567', T + 123, false],
    ['2023-11-14T22:13:20.0000000+00:00', T, true],
    [1_700_000_000, T, true],
    [1_700_000_000_000, T, true],
    ['1700000000', T, true],
    ['1700000000000', T, true],
    ['/Date(1700000000000)/', T, true],
    ['/Date(1700000000000+0100)/', T, true],
    ['\\/Date(1700000000000)\\/', T, true],
    ['11/14/2023 22:13:20', T, false],
    ['11/14/2023 10:13:20 PM', T, false],
    ['Tue, 14 Nov 2023 22:13:20 GMT', T, true],
  ])('reads %j', (raw, ms, zoned) => {
    expect(readTime(raw)).toEqual({ ms, zoned });
  });

  it.each(['', 'n/a', 'yesterday', '2023-02-31T00:00:00', '2023-13-01T00:00:00', '/Date(abc)/', '2'])('does not read %j', (raw) => {
    expect(readTime(raw)).toBeUndefined();
  });
});

describe('wireTimeOf', () => {
  it('writes UTC with its Z, moving zone-less times by the clock offset only', () => {
    expect(wireTimeOf('2023-11-14T22:13:20')).toBe('2023-11-14T22:13:20Z');
    expect(wireTimeOf('2023-11-14T17:13:20', -5 * 3_600_000)).toBe('2023-11-14T22:13:20Z');
    expect(wireTimeOf('2023-11-14T22:13:20Z', -5 * 3_600_000)).toBe('2023-11-14T22:13:20Z');
    expect(wireTimeOf(1_700_000_000_123)).toBe('2023-11-14T22:13:20.123Z');
  });

  it('keeps an unreadable time as sent, and says it is unreadable', () => {
    expect(wireTimeOf('soon')).toBe('soon');
    expect(isUnreadableTime('soon')).toBe(true);
    expect(isUnreadableTime('2023-11-14T22:13:20')).toBe(false);
    expect(isUnreadableTime(undefined)).toBe(false);
    expect(timeText('soon')).toBe('unreadable ("soon")');
  });
});

describe('clock offsets', () => {
  it('learns an offset beyond the tolerance and says it', () => {
    expect(clockOffsetOf(T - 5 * 3_600_000 + 800, T)).toBe(-5 * 3_600_000 + 1000);
    expect(clockOffsetOf(T + 90_000, T)).toBe(0);
    expect(describeClockOffset(-5 * 3_600_000)).toBe('clock differs by \u22125 h');
    expect(describeClockOffset(7 * 60_000)).toBe('clock differs by +7 min');
    expect(describeClockOffset(60_000)).toBeUndefined();
  });
});

describe("a host's clock from the HTTP Date header", () => {
  const at = (ms: number): string => new Date(ms).toUTCString();
  const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);
  it('counts a host clock beyond the tolerance, to the second, from the interval the header allows', () => {
    // Sent at T0, answered 400 ms later; the host's clock 7 min fast: the header says T0 + 7 min (whole seconds).
    expect(dateHeaderOffset(at(T0 + 420_000), T0, T0 + 400)).toBe(420_000);
    expect(dateHeaderOffset(at(T0 - 600_000 + 200), T0, T0 + 400)).toBe(-600_000);
  });

  it('says 0 when the interval reaches into the tolerance: a slow answer or a clock within 3 min', () => {
    expect(dateHeaderOffset(at(T0 + 1500), T0, T0 + 400)).toBe(0);
    expect(dateHeaderOffset(at(T0 + 179_000), T0, T0 + 400)).toBe(0);
    // 4 min ahead, but the answer took 2 min: the host may have written it 2 min after the request left.
    expect(dateHeaderOffset(at(T0 + 240_000), T0, T0 + 120_000)).toBe(0);
  });

  it('cannot read a missing or malformed header, nor an answer before its request', () => {
    expect(dateHeaderOffset(undefined, T0, T0)).toBeUndefined();
    expect(dateHeaderOffset('yesterday', T0, T0)).toBeUndefined();
    expect(dateHeaderOffset(at(T0), T0 + 10, T0)).toBeUndefined();
  });
});

describe('normalising notification records', () => {
  const op = getOperation('GET /notifications/query');
  const read = (records: unknown[], clockOffsetMs?: number): Array<Record<string, unknown>> => {
    const r = normaliseAnswer(op.response, { Data: records }, { clockOffsetMs });
    if (!r.ok) throw new Error(r.expected);
    return (r.value as { Data: Array<Record<string, unknown>> }).Data;
  };

  it('maps level names in any case and keeps an unknown level as text, never dropping the record', () => {
    const out = read([{ Id: 1, Level: 'Fatal' }, { Id: 2, Level: 'ERROR' }, { Id: 3, Level: 'warn' }, { Id: 4, Level: 'Information' }, { Id: 5, Level: 'Alarmed' }, { Id: 6, Level: '5' }]);
    expect(out.map((r) => r.Level)).toEqual([5, 4, 3, 2, 'Alarmed', 5]);
  });

  it('reads every time form and applies the clock offset to zone-less ones', () => {
    const out = read([{ Timestamp: 1_700_000_000_000 }, { Timestamp: '/Date(1700000000000)/' }, { Timestamp: '2023-11-14T17:13:20' }, { Timestamp: 'later' }], -5 * 3_600_000);
    expect(out.map((r) => r.Timestamp)).toEqual(['2023-11-14T22:13:20Z', '2023-11-14T22:13:20Z', '2023-11-14T22:13:20Z', 'later']);
  });

  it('hears the zone-less Time of nodes (how a clock is learned)', () => {
    const heard: number[] = [];
    normaliseAnswer(getOperation('GET /nodes/list').response, { Data: [{ Name: 'n1', Time: '2023-11-14T17:13:20' }, { Name: 'n2', Time: '2023-11-14T22:13:20Z' }] }, { onNodeTime: (ms) => heard.push(ms) });
    expect(heard).toEqual([T - 5 * 3_600_000]);
  });
});

describe("a system's clock from the stamps of records a poll saw first", () => {
  const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);
  const H = 3_600_000;
  it('takes the zone offset the window allows: records stamped in local time (UTC−5) between two polls', () => {
    // Polled at T0 and T0 + 5 min; two records created at T0 + 1 min and T0 + 4 min, stamped 5 h behind.
    expect(freshRecordOffset([T0 + 60_000 - 5 * H, T0 + 240_000 - 5 * H], T0, T0 + 300_000)).toBe(-5 * H);
    // A half-hour zone (UTC+5:30) is a quarter-hour multiple too.
    expect(freshRecordOffset([T0 + 120_000 + 5.5 * H], T0, T0 + 300_000)).toBe(5.5 * H);
  });

  it('says 0 for a clock that agrees, and the midpoint to the second for one that is merely wrong', () => {
    expect(freshRecordOffset([T0 + 120_000], T0, T0 + 300_000)).toBe(0);
    // 7 min 20 s fast, polled 2 min apart: the offset lies in [7 min 9 s, 10 min] (the read's lead
    // of a minute included), where no quarter hour lies.
    const fast = 440_000;
    const got = freshRecordOffset([T0 + 100_000 + fast, T0 + 110_000 + fast], T0, T0 + 120_000);
    expect(got).toBe(515_000);
  });

  it('learns nothing from no records, records that contradict each other, or a window too wide', () => {
    expect(freshRecordOffset([], T0, T0 + 300_000)).toBeUndefined();
    // One record 5 h behind, another on time: no single offset fits both.
    expect(freshRecordOffset([T0 + 60_000 - 5 * H, T0 + 60_000], T0, T0 + 300_000)).toBeUndefined();
    // A poll two hours after the last, one record: any zone within two hours fits.
    expect(freshRecordOffset([T0 + 3_000_000 - 5 * H], T0, T0 + 2 * H)).toBeUndefined();
  });
});

describe('the order of slashed dates', () => {
  const fifth = Date.UTC(2025, 0, 5, 12, 0, 0);
  it('is told by a first number over 12, a second over 12, or the reading near now', () => {
    expect(slashedDayFirst('15/01/2025 12:00:00', fifth)).toBe(true);
    expect(slashedDayFirst('01/15/2025 12:00:00', fifth)).toBe(false);
    expect(slashedDayFirst('05/01/2025 07:00:00', fifth)).toBe(true);
    expect(slashedDayFirst('01/05/2025 12:00:00', fifth)).toBe(false);
    // The same day and month, or no slashed date: cannot tell.
    expect(slashedDayFirst('01/01/2025 12:00:00', Date.UTC(2025, 0, 1, 12))).toBeUndefined();
    expect(slashedDayFirst('2025-01-05T12:00:00', fifth)).toBeUndefined();
  });

  it('reads an ambiguous date day first only when told to', () => {
    expect(readTime('05/01/2025 12:00:00')?.ms).toBe(Date.UTC(2025, 4, 1, 12));
    expect(readTime('05/01/2025 12:00:00', true)?.ms).toBe(fifth);
    // A second number over 12 is a day whatever the order.
    expect(readTime('01/15/2025 12:00:00', true)?.ms).toBe(Date.UTC(2025, 0, 15, 12));
  });
});
