/**
 * The typed provider client: one method per operation of the registry (`operations.ts`), each
 * through the same machinery: request validation before any call, lossless serialization,
 * signing, transport, envelope. Deprecated methods are declared again by hand in
 * {@link DeprecatedProviderMethods}, since a mapped type cannot carry per-key `@deprecated`
 * (test/unit/provider/client-types.test.ts holds them to the registry). Sensitive values come back
 * encrypted, as sent; decrypt them with `decryptSensitive` only where needed.
 */
import { Blob } from 'node:buffer';
import { FormData } from 'undici';
import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import { type ProviderCallRecord, callOutcomeOf } from './call-outcome';
import type { ProviderConfig } from './config';
import { interpretResponse, issuesOf } from './envelope';
import { ProviderValidationError } from './errors';
import { type RequestBody, type Transport, createHttpTransport } from './http';
import { stringifyJson } from './json';
import type { OperationDef, ParamsOf, ResultOf } from './operation';
import { type Operations, operations } from './operations';
import { paginatePages } from './paginate';

/** Per-call options. */
export interface CallOptions {
  /**
   * Aborts the call (e.g. the activity's cancellation signal); rejects with ProviderAbortedError.
   */
  signal?: AbortSignal;
  /** Overrides the configured timeout for this call. */
  timeoutMs?: number;
}

export type OperationRegistry = Record<string, OperationDef>;

/** Arguments of a method: params may be omitted when the operation takes none. */
type MethodArgs<Op extends OperationDef> =
  Record<never, never> extends ParamsOf<Op>
    ? [params?: ParamsOf<Op>, options?: CallOptions]
    : [params: ParamsOf<Op>, options?: CallOptions];

export type OperationMethod<Op extends OperationDef> = (...args: MethodArgs<Op>) => Promise<ResultOf<Op>>;

/** Record type of a paged operation. */
export type PageRecordOf<Op extends OperationDef> = ResultOf<Op> extends { records: Array<infer T> } ? T : never;

/** Names of the paged operations of a registry. */
export type PageOperationName<Ops extends OperationRegistry> = {
  [K in keyof Ops]: Ops[K]['shape'] extends 'page' ? K : never;
}[keyof Ops];

/** Params of a paged operation without its page-number field (the iterator sets it). */
export type PageParamsOf<Op extends OperationDef> = Omit<ParamsOf<Op>, 'pageNum' | 'pageNo'>;

export type PageIterator<Op extends OperationDef> = (
  params?: PageParamsOf<Op>,
  options?: CallOptions,
) => AsyncGenerator<PageRecordOf<Op>, void, undefined>;

/** The client for any registry (tests use small ones). */
export type ProviderClientFor<Ops extends OperationRegistry> = { [K in keyof Ops]: OperationMethod<Ops[K]> } & {
  /** Async iterators over every record of each paged operation. */
  readonly paginate: { [K in PageOperationName<Ops>]: PageIterator<Ops[K]> };
  /** Closes the connection pool. */
  close(): Promise<void>;
};

/** The deprecated operations (spec, Versioning), declared by hand so each carries `@deprecated`. */
export interface DeprecatedProviderMethods {
  /**
   * @deprecated The provider deprecated the wallet deposit order; use wallet v2 addresses
   * (`createWalletAddress`).
   */
  walletDepositOrder: OperationMethod<Operations['walletDepositOrder']>;
  /**
   * @deprecated The provider deprecated the wallet deposit transaction query; use
   * `listWalletTransactions`.
   */
  walletDepositTransactions: OperationMethod<Operations['walletDepositTransactions']>;
  /**
   * @deprecated v1 card creation (cardNo only once status=success, amount is the card fee); use
   * `createCard`.
   */
  openCard: OperationMethod<Operations['openCard']>;
  /** @deprecated v1 cardholder create; use `createCardholder` (v2). */
  createCardholderV1: OperationMethod<Operations['createCardholderV1']>;
  /** @deprecated v1 cardholder update; use `updateCardholder` (v2). */
  updateCardholderV1: OperationMethod<Operations['updateCardholderV1']>;
}

/** The cardflow provider client: one typed method per operation of `operations.ts`. */
export type ProviderClient = Omit<ProviderClientFor<Operations>, keyof DeprecatedProviderMethods> &
  DeprecatedProviderMethods;

/**
 * Configuration plus an optional transport (tests inject one; normally the pooled undici
 * transport).
 */
export interface ClientOptions extends ProviderConfig {
  transport?: Transport;
  /**
   * Called once per call sent (not for one refused by validation before sending), with its
   * operation, outcome and duration: the worker's provider metrics. Must not throw.
   */
  onCall?: (call: ProviderCallRecord) => void;
  /**
   * Runs each call sent (tracing: a span around it, platform/telemetry/tracing.ts). Gets the
   * operation and the merchantOrderNo, never the body; must call `send` once and return what it
   * returns.
   */
  wrapCall?: <T>(call: { operation: string; merchantOrderNo?: string }, send: () => Promise<T>) => Promise<T>;
}

function merchantOrderNoOf(params: unknown): string | undefined {
  const value = params && typeof params === 'object' ? (params as Record<string, unknown>).merchantOrderNo : undefined;
  return typeof value === 'string' ? value : undefined;
}

interface UploadFile {
  filename: string;
  contentType: string;
  data: Uint8Array;
}

/** Multipart parts `category` and `file` (spec, File upload); the signature covers `{}`. */
function multipartBody(request: Record<string, unknown>): RequestBody {
  const form = new FormData();
  for (const [name, value] of Object.entries(request)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'object' && (value as UploadFile).data instanceof Uint8Array) {
      const file = value as UploadFile;
      form.append(name, new Blob([file.data], { type: file.contentType }), file.filename);
    } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      form.append(name, String(value));
    } else {
      form.append(name, stringifyJson(value));
    }
  }
  return { kind: 'multipart', form };
}

/** `send`, reporting its outcome and duration to `onCall`. */
function timing<T>(operation: string, send: () => Promise<T>, onCall: (call: ProviderCallRecord) => void) {
  return async (): Promise<T> => {
    const started = performance.now();
    try {
      const result = await send();
      onCall({ operation, outcome: 'ok', seconds: (performance.now() - started) / 1000 });
      return result;
    } catch (error) {
      onCall({ operation, outcome: callOutcomeOf(error), seconds: (performance.now() - started) / 1000 });
      throw error;
    }
  };
}

/** Builds a client for any registry of operations. */
export function createProviderClientFor<Ops extends OperationRegistry>(
  registry: Ops,
  options: ClientOptions,
): ProviderClientFor<Ops> {
  const transport = options.transport ?? createHttpTransport(options);

  async function call(op: OperationDef, params: unknown, callOptions: CallOptions = {}): Promise<unknown> {
    const merchantOrderNo = merchantOrderNoOf(params);
    const parsed = op.request.safeParse(params ?? {});
    if (!parsed.success)
      throw new ProviderValidationError(issuesOf(parsed.error), { operation: op.name, merchantOrderNo });
    const request = parsed.data as Record<string, unknown>;
    const body: RequestBody = op.multipart ? multipartBody(request) : { kind: 'json', text: stringifyJson(request) };
    const send = async () => {
      const raw = await transport.send({
        operation: op.name,
        path: op.path,
        body,
        merchantOrderNo,
        resendable: !op.mutating,
        ...callOptions,
      });
      return interpretResponse(op, raw, { operation: op.name, merchantOrderNo });
    };
    const timed = options.onCall ? timing(op.name, send, options.onCall) : send;
    return options.wrapCall
      ? options.wrapCall({ operation: op.name, ...(merchantOrderNo ? { merchantOrderNo } : {}) }, timed)
      : timed();
  }

  const client: Record<string, unknown> = {};
  const pages: Record<string, unknown> = {};
  for (const [key, op] of Object.entries(registry)) {
    client[key] = (params?: unknown, callOptions?: CallOptions) => call(op, params, callOptions);
    if (op.shape === 'page') {
      const field = op.pageField ?? 'pageNum';
      pages[key] = (params: Record<string, unknown> = {}, callOptions?: CallOptions) =>
        paginatePages(
          async (pageNumber) =>
            (await call(op, { ...params, [field]: pageNumber }, callOptions)) as ResultOf<
              OperationDef<string, z.ZodType, z.ZodType, 'page'>
            >,
        );
    }
  }
  client.paginate = pages;
  client.close = () => transport.close();
  return client as ProviderClientFor<Ops>;
}

/**
 * Builds the cardflow provider client over the full operation registry. Call `close()` when done.
 */
export function createProviderClient(options: ClientOptions): ProviderClient {
  return createProviderClientFor(operations, options);
}

type AnyPageIterators = Record<
  string,
  (params?: never, options?: CallOptions) => AsyncGenerator<unknown, void, undefined>
>;

/**
 * Iterates every record of a paged operation: `paginate(client, 'listCardTransactions', { type:
 * 'deposit' })`.
 */
export function paginate<C extends { readonly paginate: AnyPageIterators }, K extends keyof C['paginate'] & string>(
  client: C,
  name: K,
  ...args: Parameters<C['paginate'][K]>
): ReturnType<C['paginate'][K]> {
  const iterate = client.paginate[name] as unknown as (
    ...a: Parameters<C['paginate'][K]>
  ) => ReturnType<C['paginate'][K]>;
  return iterate(...args);
}
