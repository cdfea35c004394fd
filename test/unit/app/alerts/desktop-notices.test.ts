import { describe, expect, it } from 'vitest';
import { groupedNotices, NoticeGate, noticeText, type DesktopNotice } from '../../../../app/alerts/desktop-notices.js';
import { FakeTimers } from '../../main/core/fake-timers.js';

const alert = (level: 'warning' | 'critical', message: string) => ({ level, message });

describe('noticeText', () => {
  it('keeps one line with no control, bidi, invisible or markup character', () => {
    expect(noticeText('sysB\u202E\nFleetdeck ok: all healthy', 100)).toBe('sysB Fleetdeck ok: all healthy');
    expect(noticeText('a\u0000b\u001b[2Jc\u0085d\u2028e\u2066f\u200fg\ufeffh', 100)).toBe('ab[2Jc d efgh');
    expect(noticeText('<a href="x">click</a> &amp; <img src=x>', 100)).toBe('a href="x"click/a amp; img src=x');
    expect(noticeText('\t  spaced\r\n\r\nout  ', 100)).toBe('spaced out');
  });

  it('cuts long text to its limit in characters, never inside a surrogate pair', () => {
    expect(noticeText('x'.repeat(300), 10)).toBe(`${'x'.repeat(9)}…`);
    expect([...noticeText('😀'.repeat(20), 10)]).toHaveLength(10);
    expect(noticeText('short', 10)).toBe('short');
    expect(noticeText('x'.repeat(10), 10)).toBe('x'.repeat(10));
  });
});

describe('groupedNotices', () => {
  it('makes one notice per level of the system, worst first, counting the rest', () => {
    const notices = groupedNotices({ siteId: 's', system: 'sys1', raised: [alert('warning', 'w1'), alert('critical', 'c1'), alert('critical', 'c2'), alert('warning', 'w2'), alert('warning', 'w3')] });
    expect(notices.map((n) => [n.title, n.body])).toEqual([
      ['Fleetdeck critical: sys1', '2 new critical alerts: c1 (and 1 more)'],
      ['Fleetdeck warning: sys1', '3 new warning alerts: w1 (and 2 more)'],
    ]);
    expect(new Set(notices.map((n) => n.key)).size).toBe(2);
    expect(notices.every((n) => n.siteId === 's' && n.system === 'sys1')).toBe(true);
    expect(groupedNotices({ siteId: 's', system: 'sys1', raised: [alert('critical', 'only')] }).map((n) => n.body)).toEqual(['only']);
    expect(groupedNotices({ siteId: 's', system: 'sys1', raised: [] })).toEqual([]);
  });

  it('keys a group by site, system and level, so names with separators cannot collide', () => {
    const a = groupedNotices({ siteId: 'a,b', system: 'c', raised: [alert('critical', 'x')] })[0]!;
    const b = groupedNotices({ siteId: 'a', system: 'b,c', raised: [alert('critical', 'x')] })[0]!;
    expect(a.key).not.toBe(b.key);
  });
});

describe('NoticeGate', () => {
  function harness(cap = 3, windowMs = 60_000) {
    const timers = new FakeTimers();
    const shown: DesktopNotice[] = [];
    const gate = new NoticeGate({ show: (n) => shown.push(n), timers, cap, windowMs });
    return { timers, shown, gate };
  }

  it('shows up to the cap within a window, then one summary at its end, which opens a new window', () => {
    const h = harness();
    for (let i = 0; i < 10; i++) h.gate.offer({ siteId: 's', system: `sys${i}`, raised: [alert('critical', `m${i}`), alert('critical', `n${i}`)] });
    expect(h.shown.map((n) => n.system)).toEqual(['sys0', 'sys1', 'sys2']);
    h.timers.advance(59_999);
    expect(h.shown).toHaveLength(3);
    h.timers.advance(1);
    expect(h.shown).toHaveLength(4);
    expect(h.shown[3]).toMatchObject({ key: 'summary', title: 'Fleetdeck: more new alerts', body: '14 more new alerts on 7 systems: see the alert centre', siteId: 's', system: 'sys3' });
    // The summary counts as the first of a new window: two more fit, the third waits.
    for (let i = 0; i < 3; i++) h.gate.offer({ siteId: 's', system: `late${i}`, raised: [alert('warning', 'w')] });
    expect(h.shown.slice(4).map((n) => n.system)).toEqual(['late0', 'late1']);
    h.timers.advance(60_000);
    expect(h.shown.at(-1)?.body).toBe('1 more new alert on 1 system: see the alert centre');
    expect(h.timers.pending).toBe(0);
  });

  it('starts a new window once the last one ended with nothing held', () => {
    const h = harness(1, 1000);
    h.gate.offer({ siteId: 's', system: 'a', raised: [alert('critical', 'x')] });
    h.timers.advance(1000);
    h.gate.offer({ siteId: 's', system: 'b', raised: [alert('critical', 'x')] });
    expect(h.shown.map((n) => n.system)).toEqual(['a', 'b']);
    expect(h.timers.pending).toBe(0);
  });

  it('dispose drops what is held', () => {
    const h = harness(1);
    h.gate.offer({ siteId: 's', system: 'a', raised: [alert('critical', 'x')] });
    h.gate.offer({ siteId: 's', system: 'b', raised: [alert('critical', 'x')] });
    expect(h.timers.pending).toBe(1);
    h.gate.dispose();
    expect(h.timers.pending).toBe(0);
    h.timers.advance(120_000);
    expect(h.shown).toHaveLength(1);
  });
});

describe('notices, further rules', () => {
  it('collapses runs of spaces to one and keeps single spaces', () => {
    expect(noticeText('a   b c', 100)).toBe('a b c');
  });

  it('puts a level it does not rank after those it does', () => {
    const notices = groupedNotices({ siteId: 's', system: 'x', raised: [{ level: 'unknown', message: 'u' }, { level: 'warning', message: 'w' }, { level: 'critical', message: 'c' }] as never });
    expect(notices.map((n) => n.body)).toEqual(['c', 'w', 'u']);
  });

  it('counts into the summary the alerts of each notice held, not every alert of the change for each', () => {
    const timers = new FakeTimers();
    const shown: DesktopNotice[] = [];
    const gate = new NoticeGate({ show: (n) => shown.push(n), timers, cap: 1, windowMs: 1000 });
    gate.offer({ siteId: 's', system: 'a', raised: [alert('critical', 'x')] });
    gate.offer({ siteId: 's', system: 'b', raised: [alert('critical', 'c1'), alert('critical', 'c2'), alert('warning', 'w1'), alert('warning', 'w2'), alert('warning', 'w3')] });
    timers.advance(1000);
    expect(shown.at(-1)?.body).toBe('5 more new alerts on 1 system: see the alert centre');
  });
});
