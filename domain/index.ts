/**
 * Shared definitions of cardflow's durable processes: one import for the client, webhooks, CLI and
 * bench.
 */
export * from './task-queue';
export * from './workflow-ids';
export * from './summaries';
export * from './merchant-order-no';
export * from './failure-types';
export * from './wait-profile';
export * from './cardholder-data';
export * from './eligibility';
export * from './event-identity';
export * from './provider-event';
export * from './search-attributes';
export * from './start-attributes';
// Each workflow's definition (domain/workflows.ts), and the module of its input, result and status.
export * from './workflow-definition';
export * from './workflows';
export * from './customer-onboarding';
export * from './onboarding-physical';
export * from './onboarding-funding';
export * from './cardholder-onboarding';
export * from './card-issuance';
export * from './card-deposit';
export * from './physical-card-activation';
export * from './fund-transfer';
export * from './shared-account';
export * from './wallet-funding';
export * from './card-operations';
export * from './card-entity';
export * from './reconciliation';
export * from './compensation';
export * from './stranded-money';
