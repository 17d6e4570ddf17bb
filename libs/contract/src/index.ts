export * from './lib/fields';
export * from './lib/payloads';
export * from './lib/errors';
export * from './lib/staff';
export * from './lib/admin';
export * from './lib/value-limits';
export * from './lib/field-values';
export * from './lib/owner-text';

export * from './lib/pages';
export * from './lib/preload';
export * from './lib/crm-local-time';
export * from './lib/bounded-cache';
export * from './lib/value-format-settings';
export * from './lib/refusals';
export * from './lib/organizer-contact';
