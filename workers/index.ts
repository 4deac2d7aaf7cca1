export {
  createWorker,
  bundleCardflowWorkflows,
  WORKFLOWS_PATH,
  DEFAULT_PROBES_PER_SECOND,
  DEFAULT_PROBE_SLOTS,
  type CreateWorkerOptions,
  type ProbeBudget,
} from './create-worker';
export { CardflowWorker } from './cardflow-worker';
export { loadTemporalWorkerConfig, type TemporalWorkerConfig } from './config';
