import type { ActionLogState } from '../lib/action-log.svelte.js';
import { lazyPart, loadOnce } from '../lib/lazy.js';
import type { ReportsState } from '../reports/reports.svelte.js';

/**
 * The state of the views that keep theirs for the window's life (the reports' form and history,
 * the action log's filter and pages): made once, with their view's chunk, the first time the view
 * is shown (its part waits for it), so the frame's script carries neither their code nor the
 * download helper. Read `.value` only inside the view's part.
 */
export const VIEW_STATES = {
  reports: loadOnce(async (): Promise<ReportsState> => new (await import('../reports/reports.svelte.js')).ReportsState()),
  actionLog: loadOnce(async (): Promise<ActionLogState> => new (await import('../lib/action-log.svelte.js')).ActionLogState()),
};

/** A view's part that is shown once its state is made too. */
const withState = <T>(view: () => Promise<T>, state: { load(): Promise<unknown> }) => async (): Promise<T> => (await Promise.all([view(), state.load()]))[0];

/**
 * The views that are not on the first screen, each its own script chunk loaded
 * when first shown (`lib/lazy.ts`). The fleet overview, the tree and the header stay in the first
 * script: they are the first frame.
 */
export const PARTS = {
  search: lazyPart('the fleet search', () => import('./SearchView.svelte')),
  reports: lazyPart('the reports view', withState(() => import('./ReportsView.svelte'), VIEW_STATES.reports)),
  bulk: lazyPart('the bulk changes view', () => import('./BulkView.svelte')),
  alerts: lazyPart('the alerts view', () => import('./AlertsView.svelte')),
  actions: lazyPart('the action log', withState(() => import('./ActionLogView.svelte'), VIEW_STATES.actionLog)),
  capacity: lazyPart('capacity planning', () => import('./CapacityPlanView.svelte')),
  drift: lazyPart('the versions view', () => import('./DriftView.svelte')),
  compare: lazyPart('the configuration comparison', () => import('./CompareView.svelte')),
  compliance: lazyPart('the compliance view', () => import('./ComplianceView.svelte')),
  sites: lazyPart('the sites view', () => import('../components/SiteManager.svelte')),
  system: lazyPart('the system page', () => import('./SystemPage.svelte')),
};

/**
 * Parts of the window's frame that the first frame does not show: each its own chunk, loaded after
 * the first frame is painted (App.svelte) or at first use if that comes sooner. The frame's script
 * is then only what it shows (header, tree, overview), so less to load and compile before the first
 * frame.
 */
export const FRAME_PARTS = {
  palette: lazyPart('the command palette', () => import('../components/CommandPalette.svelte')),
  siteDialog: lazyPart('the site dialog', () => import('../components/SiteDialogHost.svelte')),
  addSite: lazyPart('the add-site dialog', () => import('../components/AddSiteDialog.svelte')),
};

/**
 * Notices and controls of the frame that most windows never show (the demo's "what if" panel, the
 * machine policy's banner, the report of an earlier sites.json's import): each its own chunk, loaded
 * only when the window has one to show (App.svelte shows them through a quiet `Lazy`).
 */
export const NOTICE_PARTS = {
  whatIf: lazyPart('the what-if panel', () => import('../components/WhatIfPanel.svelte')),
  policy: lazyPart('the machine policy banner', () => import('../components/PolicyBanner.svelte')),
  siteImport: lazyPart('the site import notice', () => import('../components/SiteImportNotice.svelte')),
};
