import type { Page } from '@playwright/test';

/** What is wrong with a view's layout: interactive elements drawn over one another, text cut off. */
export interface LayoutFaults {
  /** Pairs of controls that overlap, a control covered by something else, or one out of the window: "A | B". */
  overlaps: string[];
  /** Text cut off by its box (overflow hidden or an ellipsis) without its whole text as a tooltip. */
  clipped: string[];
}

/**
 * Looks at the page as drawn: every visible control (button, link, field, focusable) must be the
 * topmost element at its centre and overlap no other control; every element that cuts its own text
 * (`overflow` other than visible, or `text-overflow: ellipsis`) must show it whole, unless it carries
 * the whole text as a `title` (a table cell's convention; never a column's name). Only what lies
 * inside its scrolling containers and the window is looked at; an open popup may cover the page.
 */
export async function layoutFaults(page: Page): Promise<LayoutFaults> {
  // A string, not a function: tsx and Playwright's transform would wrap inner helpers in a `__name`.
  return (await page.evaluate(`(() => {
    const SELECTOR = 'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab], [tabindex]:not([tabindex="-1"])';
    const name = (el) => {
      const t = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('placeholder') || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
      const id = el.getAttribute('data-testid');
      return el.tagName.toLowerCase() + (id ? '[' + id + ']' : '') + ' "' + t + '"';
    };
    const visibleRect = (el) => {
      let r = el.getBoundingClientRect();
      let box = { l: r.left, t: r.top, r: r.right, b: r.bottom };
      box = { l: Math.max(box.l, 0), t: Math.max(box.t, 0), r: Math.min(box.r, innerWidth), b: Math.min(box.b, innerHeight) };
      for (let p = el.parentElement; p; p = p.parentElement) {
        const cs = getComputedStyle(p);
        if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') {
          const pr = p.getBoundingClientRect();
          box = { l: Math.max(box.l, pr.left), t: Math.max(box.t, pr.top), r: Math.min(box.r, pr.right), b: Math.min(box.b, pr.bottom) };
        }
      }
      return box.r - box.l > 1 && box.b - box.t > 1 ? box : undefined;
    };
    const shown = (el) => {
      const cs = getComputedStyle(el);
      return cs.visibility !== 'hidden' && cs.display !== 'none' && Number(cs.opacity) > 0 && el.getClientRects().length > 0;
    };
    const controls = [];
    for (const el of document.querySelectorAll(SELECTOR)) {
      if (!shown(el) || el.closest('[inert], [aria-hidden=true]')) continue;
      const box = visibleRect(el);
      if (box) controls.push({ el, box });
    }
    const overlaps = [];
    const scrolls = (el) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll') return true;
      }
      return false;
    };
    for (const el of document.querySelectorAll(SELECTOR)) {
      if (!shown(el) || el.closest('[inert], [aria-hidden=true]')) continue;
      const r = el.getBoundingClientRect();
      if (r.right > document.documentElement.clientWidth + 1 && !scrolls(el)) overlaps.push(name(el) + ' | out of the window');
    }
    for (const c of controls) {
      const x = (c.box.l + c.box.r) / 2, y = (c.box.t + c.box.b) / 2;
      const hit = document.elementFromPoint(x, y);
      // A popup open over the page (suggestions, a dialog) covers it by design.
      const popup = hit && hit.closest('[role=listbox], [role=dialog]');
      if (hit && !popup && hit !== c.el && !c.el.contains(hit) && !hit.contains(c.el)) overlaps.push(name(c.el) + ' | covered by ' + name(hit));
    }
    for (let i = 0; i < controls.length; i++) {
      for (let j = i + 1; j < controls.length; j++) {
        const a = controls[i], b = controls[j];
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const w = Math.min(a.box.r, b.box.r) - Math.max(a.box.l, b.box.l);
        const h = Math.min(a.box.b, b.box.b) - Math.max(a.box.t, b.box.t);
        if (w > 2 && h > 2) overlaps.push(name(a.el) + ' | ' + name(b.el));
      }
    }
    const clipped = [];
    for (const el of document.querySelectorAll('main *, header *, aside *')) {
      if (!shown(el) || !el.textContent || !el.textContent.trim() || el.closest('[aria-hidden=true]') || el.clientWidth <= 1) continue;
      if (el.matches('input, select, textarea, progress, svg, svg *, canvas')) continue;
      const cs = getComputedStyle(el);
      const cuts = cs.overflowX !== 'visible' || cs.textOverflow === 'ellipsis';
      if (!cuts || cs.overflowX === 'auto' || cs.overflowX === 'scroll') continue;
      if (el.scrollWidth <= el.clientWidth + 1) continue;
      if (!visibleRect(el)) continue;
      const text = el.textContent.trim().replace(/\\s+/g, ' ');
      // A column's name is never excused by a tooltip: it is what the admin reads to find a column.
      const header = el.closest('th, [role=columnheader]');
      const title = header ? undefined : el.getAttribute('title') || el.closest('[title]')?.getAttribute('title') || el.querySelector('[title]')?.getAttribute('title');
      if (title && title.replace(/\\s+/g, ' ').trim() === text) continue;
      if (title && text.length > 0 && title.includes(text.replace(/…$/, ''))) continue;
      clipped.push(name(el) + ' (' + el.clientWidth + ' < ' + el.scrollWidth + ')');
    }
    return { overlaps, clipped };
  })()`)) as LayoutFaults;
}
