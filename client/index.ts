/** cardflow's client library for backend services: start, follow, correct and await customer onboardings. */
export { connectTemporalClient, temporalSettingsFromEnv, type TemporalClientHandle, type TemporalSettings } from './connection';
export {
  awaitResult,
  getProgress,
  onboardingHandle,
  startOnboarding,
  submitCorrection,
  type CustomerOnboardingWorkflow,
  type OnboardingHandle,
  type StartOnboardingOptions,
  type StartedOnboarding,
} from './onboarding';
export { watchProgress, type WatchOptions, type WatchResult } from './progress';
export { describeProgress, describeResult, workflowUiUrl } from './format';
export { InvalidInputError, parseCardholderCorrection, parseOnboardingInput } from './validation';
