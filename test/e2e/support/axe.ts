import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** One axe-core finding: the rule, its impact and where. */
export interface AxeFinding {
  rule: string;
  impact: string;
  targets: string[];
}

/**
 * Runs axe-core on the page as drawn and returns its serious and critical findings, plus every
 * `label-content-name-mismatch` (an accessible name that differs from the visible text: what a
 * voice-control user says does not match; experimental in axe-core, so turned on here).
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(`(async () => {
    const r = await window.axe.run(document, { rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'label-content-name-mismatch')
      .map((v) => ({ rule: v.id, impact: v.impact, targets: v.nodes.slice(0, 6).map((n) => n.target.join(' ') + ' ' + (n.failureSummary || '').split('\\n')[1]) }));
  })()`) as Promise<AxeFinding[]>;
}
