export * from './lib/fields';
export * from './lib/payloads';
export * from './lib/errors';
