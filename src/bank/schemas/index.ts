export * from './common.js';
export * from './errors.js';
export * from './boleto.js';
export * from './webhook.js';
