import { describe, expect, it } from 'vitest';
import { evaluateAlerts } from '../../../../app/alerts/evaluate.js';
import { DEFAULT_RULES } from '../../../../app/alerts/rules.js';
import { normaliseAnswer } from '../../../../app/answers/normalise.js';
import { slashedOrderOf, timeMs, timeText, type StampKind } from '../../../../app/answers/time.js';
import { getOperation, type NotificationRecord } from '../../../../app/catalog/index.js';

const QUERY = getOperation('GET /notifications/query').response;
const NOW = Date.UTC(2025, 10, 10, 12, 0, 0);

/** A system's answers read in order, its date order learned across them as the session does. */
function system(now = NOW, known?: boolean) {
  let dayFirst = known;
  return {
    read(records: Array<Partial<Record<keyof NotificationRecord, unknown>>>): NotificationRecord[] {
      const r = normaliseAnswer(QUERY, { Data: structuredClone(records) }, {
        dayFirst,
        learnDateOrder: (raw: unknown, kind: StampKind) => {
          const order = slashedOrderOf(raw, kind, now);
          if (order !== undefined) dayFirst = order;
          return dayFirst;
        },
      });
      if (!r.ok) throw new Error(r.answered);
      return (r.value as { Data: NotificationRecord[] }).Data;
    },
    order: (): boolean | undefined => dayFirst,
  };
}

describe('slashed dates of a system whose order is not known', () => {
  it('reads every record by a later one whose day is over 12', () => {
    const s = system();
    const [first, second] = s.read([
      { Id: 1, Level: 5, Timestamp: '05/11/2025 12:00:00' },
      { Id: 2, Level: 2, Timestamp: '28/10/2025 08:00:00' },
    ]);
    expect(s.order()).toBe(true);
    expect(timeMs(first?.Timestamp)).toBe(Date.UTC(2025, 10, 5, 12));
    expect(timeMs(second?.Timestamp)).toBe(Date.UTC(2025, 9, 28, 8));
  });

  it('takes the reading that does not lie in the future', () => {
    // 10/12/2025 month first is 12 October (past); day first 10 December (a month ahead): month first.
    const s = system();
    s.read([{ Id: 1, Level: 2, Timestamp: '10/12/2025 09:00:00' }]);
    expect(s.order()).toBe(false);
    // 11/10/2025 day first is 11 October (past), month first 10 November, 3 h ahead of now: within a day's zones, so no evidence.
    expect(slashedOrderOf('11/10/2025 15:00:00', 'past', NOW)).toBeUndefined();
    expect(slashedOrderOf('11/10/2025 15:00:00', 'any', NOW)).toBeUndefined();
  });

  it('marks a time that cannot be told ambiguous, and the record still counts by its level', () => {
    const s = system();
    const records = s.read([
      { Id: 1, Level: 5, Module: 'Hardware', Message: 'Drive 3 failed', Timestamp: '10/11/2025 11:59:00' },
      { Id: 2, Level: 2, Timestamp: '09/11/2025 08:00:00' },
    ]);
    expect(s.order()).toBeUndefined();
    expect(records).toHaveLength(2);
    expect(timeMs(records[0]?.Timestamp)).toBeUndefined();
    expect(timeText(records[0]?.Timestamp)).toBe('ambiguous ("10/11/2025 11:59:00": day or month first not known)');
    const alerts = evaluateAlerts({ now: NOW, state: 'ok', rollup: {}, notifications: { Data: records } }, DEFAULT_RULES).conditions;
    expect(alerts.filter((a) => a.rule === 'notification' && a.level === 'critical')).toHaveLength(1);
  });

  it('reads by an order learned before (another answer, an earlier process)', () => {
    const s = system(NOW, true);
    const [r] = s.read([{ Id: 1, Level: 5, Timestamp: '10/11/2025 11:59:00' }]);
    expect(timeMs(r?.Timestamp)).toBe(Date.UTC(2025, 10, 10, 11, 59));
  });

  it('reads a day equal to its month, and non-slashed times, whatever the order', () => {
    const s = system();
    const [a, b] = s.read([
      { Id: 1, Level: 2, Timestamp: '11/11/2025 08:00:00' },
      { Id: 2, Level: 2, Timestamp: '2025-11-09T08:00:00' },
    ]);
    expect(timeMs(a?.Timestamp)).toBe(Date.UTC(2025, 10, 11, 8));
    expect(timeMs(b?.Timestamp)).toBe(Date.UTC(2025, 10, 9, 8));
  });

  it('without a system (stored answers) reads the invariant culture month first, as before', () => {
    const r = normaliseAnswer(QUERY, { Data: [{ Id: 1, Timestamp: '10/11/2025 11:59:00' }] });
    expect(r.ok && timeMs((r.value as { Data: NotificationRecord[] }).Data[0]?.Timestamp)).toBe(Date.UTC(2025, 9, 11, 11, 59));
  });
});
