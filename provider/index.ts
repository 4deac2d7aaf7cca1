/**
 * Public API of the provider client. Import from `provider` (its index), not from the files behind
 * it.
 */
export {
  type CallOptions,
  type ClientOptions,
  type DeprecatedProviderMethods,
  type OperationMethod,
  type OperationRegistry,
  type PageIterator,
  type PageOperationName,
  type PageParamsOf,
  type PageRecordOf,
  type ProviderClient,
  type ProviderClientFor,
  createProviderClient,
  createProviderClientFor,
  paginate,
} from './client';
export { type ProviderConfig, ProviderConfigError, providerConfig } from './config';
export { type Envelope, asEnvelope, extractData, interpretResponse } from './envelope';
export {
  DUPLICATE_ORDER_CODE,
  type Issue,
  ProviderAbortedError,
  ProviderBusinessError,
  ProviderError,
  type ProviderErrorContext,
  ProviderResponseError,
  ProviderServerError,
  ProviderSignatureError,
  ProviderTimeoutError,
  ProviderTransportError,
  ProviderValidationError,
  RETRYABLE_BUSINESS_CODES,
  isDuplicateOrderFailure,
} from './errors';
export {
  type RawResponse,
  type RequestBody,
  type SignatureStatus,
  type Transport,
  type TransportOptions,
  type TransportRequest,
  createHttpTransport,
} from './http';
export { LosslessNumber, isLosslessNumber, jsonNumber, parseJson, stringifyJson } from './json';
export {
  KeyFormatError,
  type KeyInput,
  type RsaKeyPair,
  generateRsaKeyPair,
  modulusBytes,
  privateKeyFrom,
  privateKeyFromFile,
  publicKeyFrom,
  publicKeyFromFile,
} from './keys';
export type { DataShape, OperationDef, Page, ParamsOf, ResultOf } from './operation';
export { type OperationName, type Operations, operations } from './operations';
export { type PageFetcher, paginatePages } from './paginate';
export { MAX_TRANSPORT_RETRIES, RETRYABLE_CONNECTION_CODES, connectionErrorCode, shouldRetryTransport } from './retry';
export { SensitiveDataError, decryptSensitive, encryptSensitive } from './sensitive';
export {
  API_KEY_HEADER,
  CATEGORY_HEADER,
  EMPTY_BODY,
  type HeaderSource,
  REQUEST_ID_HEADER,
  SIGNATURE_HEADER,
  type SignedWebhook,
  type VerifiedWebhook,
  WEBHOOK_ACK_BODY,
  WebhookSignatureError,
  type WebhookSignatureProblem,
  buildSignedWebhook,
  headerValue,
  signBody,
  verifySignature,
  verifyWebhook,
} from './signing';
export { isBase64 } from './base64';
