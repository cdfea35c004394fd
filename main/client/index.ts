export * from './api-client.js';
export * from './errors.js';
export * from './tls.js';
export * from './answer.js';
