export { createWorker, bundleCardflowWorkflows, WORKFLOWS_PATH, type CreateWorkerOptions } from './create-worker';
export { loadTemporalWorkerConfig, type TemporalWorkerConfig } from './config';
