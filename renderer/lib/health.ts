export { levelRank, worse, type Level } from '../../app/health/level.js';
export { highLevel, laggingReplication, rollupHealth, unhealthyDrives, type Dimension, type LaggingPair, type NodeDrive, type Rollup } from '../../app/health/rollup.js';
export { connectionLevel, systemLevel, systemReasons } from '../../app/health/connection.js';
export { driveMessage, driveStatusText } from '../../app/health/states.js';
