import { lazyPart } from '../lib/lazy.js';

/**
 * The views that are not on the first screen, each its own script chunk loaded
 * when first shown (`lib/lazy.ts`). The fleet overview, the tree and the header stay in the first
 * script: they are the first frame.
 */
export const PARTS = {
  search: lazyPart('the fleet search', () => import('./SearchView.svelte')),
  reports: lazyPart('the reports view', () => import('./ReportsView.svelte')),
  bulk: lazyPart('the bulk changes view', () => import('./BulkView.svelte')),
  alerts: lazyPart('the alerts view', () => import('./AlertsView.svelte')),
  actions: lazyPart('the action log', () => import('./ActionLogView.svelte')),
  capacity: lazyPart('capacity planning', () => import('./CapacityPlanView.svelte')),
  drift: lazyPart('the versions view', () => import('./DriftView.svelte')),
  compare: lazyPart('the configuration comparison', () => import('./CompareView.svelte')),
  sites: lazyPart('the sites view', () => import('../components/SiteManager.svelte')),
  system: lazyPart('the system page', () => import('./SystemPage.svelte')),
};

/**
 * Parts of the window's frame that the first frame does not show: each its own chunk, loaded after
 * the first frame is painted (App.svelte) or at first use if that comes sooner. The frame's script
 * is then only what it shows (header, tree, overview), so less to load and compile before the first
 * frame (issue 17).
 */
export const FRAME_PARTS = {
  palette: lazyPart('the command palette', () => import('../components/CommandPalette.svelte')),
  siteDialog: lazyPart('the site dialog', () => import('../components/SiteDialogHost.svelte')),
  addSite: lazyPart('the add-site dialog', () => import('../components/AddSiteDialog.svelte')),
};
