/**
 * The provider client's error hierarchy. Activities classify failures by `type` (a stable string,
 * never `constructor.name`) and `retryable`, and can read the raw envelope, the HTTP status and the
 * request id.
 *
 * ProviderError
 * ├── ProviderTransportError   connection failed; outcome UNKNOWN; retryable
 * │   ├── ProviderTimeoutError no answer in time; outcome UNKNOWN; retryable
 * │   └── ProviderAbortedError the caller's AbortSignal fired; not retryable
 * ├── ProviderServerError      HTTP 5xx (with or without envelope); retryable
 * ├── ProviderBusinessError    failure envelope (code, msg); retryable: RETRYABLE_BUSINESS_CODES
 * ├── ProviderValidationError  request breaks a rule of the spec; raised before any call
 * ├── ProviderSignatureError   response signature missing or wrong; not retryable
 * └── ProviderResponseError    response does not match the spec's shape; not retryable
 */
import { ProviderErrorTypes, type ProviderErrorType } from './error-types';

/**
 * Failure code our sandbox uses for a reused merchantOrderNo (`SandboxErrorCode.duplicateOrder` in
 * tools/sandbox/contract.ts; provider/ does not import tools/sandbox/). The real provider is
 * recognised by its msg.
 */
export const DUPLICATE_ORDER_CODE = 40003;

/** What is known about a failed call; any field may be unknown (undefined) where it failed. */
export interface ProviderErrorContext {
  /** Client method name, e.g. `createCard`. */
  operation?: string | undefined;
  merchantOrderNo?: string | undefined;
  /** The parsed response body (envelope), when there was one. */
  envelope?: unknown;
  httpStatus?: number | undefined;
  /** X-WSB-REQUEST-ID of the response, when present. */
  requestId?: string | undefined;
  cause?: unknown;
}

export abstract class ProviderError extends Error {
  /**
   * Stable classification string (provider/error-types.ts); survives minification and crosses the
   * activity boundary.
   */
  abstract readonly type: ProviderErrorType;
  /** Whether trying the same call again can help (the Temporal retry policy owns the backoff). */
  abstract readonly retryable: boolean;
  readonly operation: string | undefined;
  readonly merchantOrderNo: string | undefined;
  readonly envelope: unknown;
  readonly httpStatus: number | undefined;
  readonly requestId: string | undefined;

  constructor(message: string, context: ProviderErrorContext = {}) {
    super(
      context.operation ? `${context.operation}: ${message}` : message,
      context.cause === undefined ? undefined : { cause: context.cause },
    );
    this.name = new.target.name;
    this.operation = context.operation;
    this.merchantOrderNo = context.merchantOrderNo;
    this.envelope = context.envelope;
    this.httpStatus = context.httpStatus;
    this.requestId = context.requestId;
  }
}

/**
 * The request may or may not have reached the provider (connection refused/reset, socket
 * closed). A mutating call must be reconciled by querying its merchantOrderNo, or retried
 * with the SAME merchantOrderNo (a "Duplicate order number" answer then means it went through).
 */
export class ProviderTransportError extends ProviderError {
  readonly type: ProviderErrorType = ProviderErrorTypes.transport;
  readonly retryable: boolean = true;
  /** The low-level error code (ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET...), when known. */
  readonly code: string | undefined;
  constructor(message: string, context: ProviderErrorContext & { code?: string | undefined } = {}) {
    super(message, context);
    this.code = context.code;
  }
}

/** No complete answer within the timeout; the outcome is unknown, as for a transport error. */
export class ProviderTimeoutError extends ProviderTransportError {
  override readonly type = ProviderErrorTypes.timeout;
  constructor(
    readonly timeoutMs: number,
    context: ProviderErrorContext = {},
  ) {
    super(`no response within ${timeoutMs} ms (outcome unknown)`, { ...context, code: 'TIMEOUT' });
  }
}

/** The caller's AbortSignal fired (e.g. activity cancellation); outcome unknown; not retried. */
export class ProviderAbortedError extends ProviderTransportError {
  override readonly type = ProviderErrorTypes.aborted;
  override readonly retryable = false;
  constructor(context: ProviderErrorContext = {}) {
    super('request aborted by the caller (outcome unknown)', { ...context, code: 'ABORTED' });
  }
}

/**
 * A failure envelope's `msg` (or code) that means the merchantOrderNo was already used
 * (provider-notes, Responses).
 */
export function isDuplicateOrderFailure(code: number | undefined, msg: string | undefined | null): boolean {
  return code === DUPLICATE_ORDER_CODE || /duplicate order number/i.test(msg ?? '');
}

/** HTTP 5xx: the provider failed; retry (a mutating call keeps its merchantOrderNo). */
export class ProviderServerError extends ProviderError {
  readonly type = ProviderErrorTypes.server;
  readonly retryable = true;
  /** Envelope code and msg when the 5xx carried an envelope. */
  readonly code: number | undefined;
  readonly msg: string | undefined;
  constructor(
    context: ProviderErrorContext & { httpStatus: number; code?: number | undefined; msg?: string | undefined },
  ) {
    super(
      `provider answered HTTP ${context.httpStatus}${context.msg ? ` (${context.code ?? '?'}: ${context.msg})` : ''}`,
      context,
    );
    this.code = context.code;
    this.msg = context.msg;
  }
  get isDuplicateOrder(): boolean {
    return isDuplicateOrderFailure(this.code, this.msg);
  }
}

/**
 * Failure-envelope codes worth retrying. The provider publishes no codes (spec, Errors);
 * 500 in an envelope is a provider-side fault (and the sandbox's injected fault), 429 a rate
 * limit. Everything else (40002 parameter, 40003 duplicate, 40004 not found, 40005 state,
 * 40006 balance, 401xx auth) repeats identically on retry.
 */
export const RETRYABLE_BUSINESS_CODES: readonly number[] = [500, 429];

/** The provider answered with a failure envelope `{success:false, code, msg}`. */
export class ProviderBusinessError extends ProviderError {
  readonly type = ProviderErrorTypes.business;
  readonly retryable: boolean;
  readonly code: number;
  readonly msg: string;
  /**
   * True when the failure envelope carried no X-WSB-SIGNATURE (reported, not fatal: provider-notes,
   * Responses).
   */
  readonly signatureMissing: boolean;
  constructor(context: ProviderErrorContext & { code: number; msg: string; signatureMissing?: boolean }) {
    super(`provider refused (${context.code}): ${context.msg}`, context);
    this.code = context.code;
    this.msg = context.msg;
    this.signatureMissing = context.signatureMissing ?? false;
    this.retryable = RETRYABLE_BUSINESS_CODES.includes(context.code);
  }
  /**
   * The merchantOrderNo was already used: the earlier call went through; query it instead of
   * failing.
   */
  get isDuplicateOrder(): boolean {
    return isDuplicateOrderFailure(this.code, this.msg);
  }
}

export interface Issue {
  /** Dotted field path, e.g. `merchantOrderNo` or `holderInfo.town`; empty for the whole value. */
  path: string;
  message: string;
}

function describeIssues(issues: readonly Issue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}

/** The request breaks a rule of the spec; raised before any network call; retrying cannot help. */
export class ProviderValidationError extends ProviderError {
  readonly type = ProviderErrorTypes.validation;
  readonly retryable = false;
  constructor(
    readonly issues: readonly Issue[],
    context: ProviderErrorContext = {},
  ) {
    super(describeIssues(issues), context);
  }
}

/** The response's X-WSB-SIGNATURE is missing or does not verify with the platform public key. */
export class ProviderSignatureError extends ProviderError {
  readonly type = ProviderErrorTypes.signature;
  readonly retryable = false;
  constructor(
    readonly reason: 'missing' | 'mismatch',
    context: ProviderErrorContext = {},
  ) {
    super(
      reason === 'missing'
        ? 'response has no X-WSB-SIGNATURE'
        : 'response X-WSB-SIGNATURE does not verify with the platform public key',
      context,
    );
  }
}

/**
 * The response is not what the spec describes (not JSON, no envelope, data of the wrong
 * shape). Not retryable: the same call gets the same answer, and for a mutating call the
 * provider may well have acted: reconcile by querying the merchantOrderNo, and fix the
 * schema. `issues` name the fields, never their values.
 */
export class ProviderResponseError extends ProviderError {
  readonly type = ProviderErrorTypes.response;
  readonly retryable = false;
  constructor(
    message: string,
    readonly issues: readonly Issue[] = [],
    context: ProviderErrorContext = {},
  ) {
    super(issues.length ? `${message}: ${describeIssues(issues)}` : message, context);
  }
}
