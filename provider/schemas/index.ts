/** Every schema of the spec, for callers that want one import. */
export * from './primitives';
export * from './fields';
export * from './account';
export * from './wallet';
export * from './card-type';
export * from './card';
export * from './card-records';
export * from './cardholder';
export * from './cardholder-requests';
export * from './reference';
export * from './file';
export * from './work-order';
