/** Reports for audits: the model, the pure builders, comparison and formatting helpers. */
export * from './model.js';
export * from './snapshot.js';
export { buildReport } from './build.js';
export { diffReports, diffTable, type ReportDiff, type TableDiff, type RowChange, type CellChange, type ReportRef } from './diff.js';
export { formatBytes, formatAge, formatPercent } from './format.js';
export { secretState, type SecretState } from './config.js';
