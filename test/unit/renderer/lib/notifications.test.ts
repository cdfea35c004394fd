import { describe, expect, it } from 'vitest';
import type { NotificationRecord } from '../../../../app/catalog/index.js';
import { emptyFilter, filterNotifications, notificationQuery } from '../../../../renderer/lib/notifications.js';

const records: NotificationRecord[] = [
  { Id: 1, Timestamp: '2025-01-01T10:00:00', Level: 2, Node: 'n1', Module: 'Nodes', Message: 'Utility run' },
  { Id: 2, Timestamp: '2025-01-01T11:00:00', Level: 4, Node: 'n2', Module: 'Hardware', Message: 'Drive failed', Properties: { Drive: 'd7' } },
  { Id: 3, Timestamp: '2025-01-01T12:00:00', Level: 3, Node: 'n1', Module: 'Hardware', Message: 'Fan slow' },
];

describe('notification filters', () => {
  it('builds the query of GET /notifications/query, levels by name and times in UTC', () => {
    const q = notificationQuery({ ...emptyFilter(), nodes: ['n1'], minLevel: 3, levels: [3, 4], modules: ['Hardware'], search: ' fan ', top: 50, descending: false });
    expect(q).toEqual({ nodes: ['n1'], minLevel: 'Warning', levels: ['Warning', 'Error'], modules: ['Hardware'], search: 'fan', top: 50, descendingOrder: false });
    const withTime = notificationQuery({ ...emptyFilter(), from: '2025-01-01T10:30' });
    expect(withTime.startTimestamp).toBe(new Date('2025-01-01T10:30').toISOString().slice(0, 19));
    expect(notificationQuery(emptyFilter())).toEqual({ top: 1000, descendingOrder: true });
  });

  it('applies the same filters to cached records, newest first by default', () => {
    const ids = (f: Partial<ReturnType<typeof emptyFilter>>) => filterNotifications(records, { ...emptyFilter(), ...f }).map((r) => r.Id);
    expect(ids({})).toEqual([3, 2, 1]);
    expect(ids({ descending: false })).toEqual([1, 2, 3]);
    expect(ids({ minLevel: 3 })).toEqual([3, 2]);
    expect(ids({ levels: [2, 4] })).toEqual([2, 1]);
    expect(ids({ nodes: ['n1'] })).toEqual([3, 1]);
    expect(ids({ modules: ['Hardware'], top: 1 })).toEqual([3]);
    expect(ids({ search: 'D7' })).toEqual([2]);
    // Record times are UTC; the form's times are local, so compare through Date.
    const from = new Date(Date.UTC(2025, 0, 1, 10, 30));
    const local = `${from.getFullYear()}-${String(from.getMonth() + 1).padStart(2, '0')}-${String(from.getDate()).padStart(2, '0')}T${String(from.getHours()).padStart(2, '0')}:${String(from.getMinutes()).padStart(2, '0')}`;
    expect(ids({ from: local })).toEqual([3, 2]);
  });

  it('orders by the instant, not the text: offsets converted, ties by id, records without a time oldest', () => {
    const at = (Id: number, Timestamp?: string): NotificationRecord => ({ Id, Level: 2, Node: 'n1', Module: 'M', Message: `m${Id}`, ...(Timestamp ? { Timestamp } : {}) });
    const mixed = [at(1, '2025-01-01T10:00:00Z'), at(2, '2025-01-01T11:30:00+02:00'), at(3), at(4, '2025-01-01T10:00:00Z'), at(5, '2025-01-01T09:45:00')];
    // 11:30+02:00 is 09:30Z, before 09:45Z; ids 1 and 4 share an instant.
    expect(filterNotifications(mixed, { ...emptyFilter(), descending: false }).map((r) => r.Id)).toEqual([3, 2, 5, 1, 4]);
    expect(filterNotifications(mixed, emptyFilter()).map((r) => r.Id)).toEqual([4, 1, 5, 2, 3]);
  });
});
