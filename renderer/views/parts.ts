import { lazyPart } from '../lib/lazy.js';

/**
 * The views that are not on the first screen, each its own script chunk loaded
 * when first shown (`lib/lazy.ts`). The fleet overview, the tree and the header stay in the first
 * script: they are the first frame, and the command palette
 * (Ctrl+K) takes typing at once (it loads the catalog's operations itself).
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
