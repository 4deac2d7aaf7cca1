/**
 * The `type` of each provider client error (provider/errors.ts), written once. It is the
 * `ApplicationFailure.type` a provider failure crosses the activity boundary with, so workflows'
 * retry profiles, resumability (domain/failure-types.ts) and the backend all name these; a module
 * of names only, so workflow code may import it.
 */
export const ProviderErrorTypes = {
  transport: 'ProviderTransportError',
  timeout: 'ProviderTimeoutError',
  aborted: 'ProviderAbortedError',
  server: 'ProviderServerError',
  business: 'ProviderBusinessError',
  validation: 'ProviderValidationError',
  signature: 'ProviderSignatureError',
  response: 'ProviderResponseError',
} as const;
export type ProviderErrorType = (typeof ProviderErrorTypes)[keyof typeof ProviderErrorTypes];
