/** Shared definitions of cardflow's durable processes: one import for the client, webhooks, CLI and bench. */
export * from './task-queue';
export * from './workflow-ids';
export * from './workflow-types';
export * from './merchant-order-no';
export * from './failure-types';
export * from './wait-profile';
export * from './cardholder-data';
export * from './eligibility';
export * from './event-identity';
export * from './provider-event';
export * from './search-attributes';
export * from './cardholder-onboarding';
export * from './card-issuance';
export * from './card-deposit';
export * from './customer-onboarding';
export * from './start-attributes';
