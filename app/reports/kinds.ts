/*
 * The report kinds and the model's format marker: plain constants, without zod, so the window's
 * report form and the schema (schema.ts) both read them from here.
 */

/** The report kinds. `audit` contains the sections of all the others. */
export const REPORT_KINDS = ['inventory', 'health', 'smart', 'config', 'actions', 'compliance', 'audit'] as const;

/** The kinds an audit pack is made of, in the order they appear in it. */
export const AUDIT_PARTS_LIST = ['inventory', 'health', 'smart', 'config', 'actions', 'compliance'] as const;

/** Format marker of the model, bumped if its shape ever changes incompatibly. */
export const REPORT_FORMAT = 'fleetdeck-report/1';
