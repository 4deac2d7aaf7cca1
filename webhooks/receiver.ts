/**
 * The webhook receiver: an HTTP endpoint the provider POSTs events to.
 *
 * For each delivery: read the raw body (capped), verify `X-WSB-SIGNATURE` with the platform public
 * key over those exact bytes (401 and nothing forwarded when it fails), drop a repeat of an
 * `X-WSB-REQUEST-ID` already handled, parse with the category's record schema, signal the running
 * workflow(s) that own the event, record the outcome, and answer the envelope the provider requires
 * (provider-notes, Webhooks). When Temporal cannot be reached the answer is 503 and nothing is
 * recorded, so the provider's retries (1m, 5m, 20m, 1h, 12h, 24h) deliver it again.
 */
import type { Client } from '@temporalio/client';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { publicKeyFrom, type KeyInput } from '../provider/keys';
import { WEBHOOK_ACK_BODY, WebhookSignatureError, verifyWebhook } from '../provider/signing';
import type { HealthRoutes } from '../platform/health/routes';
import { BodyTooLargeError, readBody, serverLimits } from '../platform/http/body';
import { type CardEntityDelivery, deliverToOwners } from './card-route';
import { type EventForwarder, createRouteForwarder } from './forwarder';
import type { RouteStore } from '../platform/storage/route-store';
import { parseEvent } from './routing';
import {
  type WebhookEntry,
  type WebhookOutcome,
  type WebhookStore,
  bodyRequestId,
  openFileWebhookStore,
} from './store';

/** Default cap on a webhook body; provider records are a few kilobytes. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export { DEFAULT_HEADERS_TIMEOUT_MS } from '../platform/http/body';
/** The whole request, body included. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** What the receiver did with one delivery, for logs and the benchmark. */
export interface HandledWebhook {
  requestId: string;
  category: string;
  outcome: WebhookOutcome | 'duplicate';
  workflowIds: string[];
  /**
   * `performance.now()` when the request arrived and when its outcome was settled (signalled and
   * recorded, or recorded).
   */
  receivedAtMs: number;
  settledAtMs: number;
  /**
   * `performance.now()` once the request was read and its signature verified: what came before
   * is the receiver's own (reading, verifying), what came after is routing, signals and the log.
   */
  verifiedAtMs: number;
  /**
   * `performance.now()` when every owner had accepted its signal (a `signalled` outcome only):
   * before the delivery log's write and sync, which the acknowledgement waits for and the
   * workflow does not.
   */
  signalledAtMs?: number;
}

export interface WebhookReceiverOptions {
  /** The platform public key from the provider dashboard (PEM or base64 DER). */
  platformPublicKey: KeyInput;
  /** Temporal client used to find and signal owners; or pass `forwarder` directly. */
  client?: Client;
  forwarder?: EventForwarder;
  /**
   * With `client`: where the workers record routes (platform/storage/route-store.ts); default the
   * machine's route file.
   */
  routes?: RouteStore;
  /** The delivery log; default a file store under `dataDir`. */
  store?: WebhookStore;
  /** Directory of the default file store; default `.data/webhooks`. */
  dataDir?: string;
  /** Interface to bind; default 127.0.0.1 (loopback). */
  host?: string;
  /** Port; default 0 (any free port). */
  port?: number;
  /** URL path that accepts webhooks; default `/webhooks`. */
  path?: string;
  maxBodyBytes?: number;
  /** Default 5 s (`DEFAULT_HEADERS_TIMEOUT_MS`, platform/http/body.ts). */
  headersTimeoutMs?: number;
  /** Default {@link DEFAULT_REQUEST_TIMEOUT_MS}. */
  requestTimeoutMs?: number;
  /**
   * With a store shared by several receivers: how long a delivery another replica is forwarding
   * is waited for (to answer it as a duplicate) before it is answered 503; default 5000 ms.
   */
  claimWaitMs?: number;
  /** Called once per delivery after it is answered. */
  onHandled?: (handled: HandledWebhook) => void;
  /**
   * Called once per request answered with an error: refused (404, 405, 413, 401 bad signature:
   * nothing forwarded, the provider's retry will not help) or not handled (503: Temporal or the
   * delivery log failed, the provider delivers it again).
   */
  onRefused?: (refused: RefusedWebhook) => void;
  /** One line per delivery (category, request id, outcome, workflow ids; never record contents). */
  log?: (line: string) => void;
  /** `/healthz` and `/readyz` (platform/health/routes.ts), answered beside the webhook path. */
  health?: HealthRoutes;
  /**
   * The card-level path (webhooks/card-route.ts): each card's events reach `card-<cardNo>`, started
   * if needed.
   */
  cardEntities?: CardEntityDelivery;
}

export interface RefusedWebhook {
  httpStatus: 401 | 404 | 405 | 413 | 503;
  /** `refused`: the request itself is wrong; `failed`: cardflow could not process it now. */
  kind: 'refused' | 'failed';
  /** Why, without the body (e.g. the signature problem, or the error message). */
  reason: string;
}

export interface WebhookReceiver {
  /** The URL to register as the provider's callback, e.g. `http://127.0.0.1:4100/webhooks`. */
  url: string;
  /** Stops accepting, waits for deliveries in progress, closes the store it opened. */
  stop(): Promise<void>;
}

function answer(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function failure(res: ServerResponse, status: number, msg: string): void {
  answer(res, status, JSON.stringify({ success: false, code: status, msg, data: null }));
}

/** One delivery's outcome before its timings are added. */
type Settled = Omit<HandledWebhook, 'receivedAtMs' | 'settledAtMs' | 'verifiedAtMs'>;

/**
 * What every delivery of one receiver shares: its options resolved once, and the deliveries in
 * progress.
 */
interface Receiver {
  opts: WebhookReceiverOptions;
  forwarder: EventForwarder;
  store: WebhookStore;
  pathname: string;
  maxBodyBytes: number;
  claimWaitMs: number;
  log: (line: string) => void;
  /**
   * Deliveries being handled, by request id: a concurrent repeat waits for the first instead of
   * signalling twice.
   */
  inFlight: Map<string, Promise<Settled>>;
}

/** A delivery that passed the signature check: its category, request id and parsed body. */
interface VerifiedDelivery {
  category: string;
  requestId: string;
  rawBody: Buffer;
  payload: unknown;
}

/** Answers a request the receiver will not take (nothing forwarded, nothing recorded). */
function refuse(
  rx: Receiver,
  res: ServerResponse,
  httpStatus: 401 | 404 | 405 | 413,
  message: string,
  reason = message,
): undefined {
  rx.opts.onRefused?.({ httpStatus, kind: 'refused', reason });
  failure(res, httpStatus, message);
  return undefined;
}

/**
 * One request, as the provider's webhook goes through the receiver: the request read and its
 * signature checked, a repeat answered as a duplicate, otherwise the event handled once (routed,
 * signalled, recorded) and acknowledged.
 */
async function handleRequest(rx: Receiver, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const receivedAtMs = performance.now();
  const rawBody = await readWebhookBody(rx, req, res);
  if (rawBody === undefined) return;
  const delivery = verifyDelivery(rx, req, res, rawBody);
  if (delivery === undefined) return;
  const verifiedAtMs = performance.now();
  const settled = await handleOnce(rx, delivery);
  answer(res, 200, WEBHOOK_ACK_BODY);
  const targets = settled.workflowIds.length ? ` -> ${settled.workflowIds.join(', ')}` : '';
  rx.log(`webhook ${settled.category || '(no category)'} ${settled.requestId}: ${settled.outcome}${targets}`);
  rx.opts.onHandled?.({ ...settled, receivedAtMs, verifiedAtMs, settledAtMs: performance.now() });
}

/** The raw body of a POST to the webhook path, or undefined once the request is refused. */
async function readWebhookBody(rx: Receiver, req: IncomingMessage, res: ServerResponse): Promise<Buffer | undefined> {
  const url = new URL(req.url ?? '/', 'http://receiver');
  if (url.pathname !== rx.pathname) return refuse(rx, res, 404, `webhooks are accepted at ${rx.pathname}`);
  if (req.method !== 'POST') return refuse(rx, res, 405, 'webhooks are POST requests');
  try {
    return await readBody(req, { limit: rx.maxBodyBytes });
  } catch (error) {
    // The rest of the body is read and dropped (bounded by the request timeout), never cut off: a
    // client that sends it all before reading gets the 413, not a broken pipe.
    if (error instanceof BodyTooLargeError) return refuse(rx, res, 413, `body larger than ${rx.maxBodyBytes} bytes`);
    throw error;
  }
}

/** The delivery `X-WSB-SIGNATURE` vouches for, or undefined once it is refused (401). */
function verifyDelivery(
  rx: Receiver,
  req: IncomingMessage,
  res: ServerResponse,
  rawBody: Buffer,
): VerifiedDelivery | undefined {
  let verified: ReturnType<typeof verifyWebhook>;
  try {
    verified = verifyWebhook({ rawBody, headers: req.headers, platformPublicKey: rx.opts.platformPublicKey });
  } catch (error) {
    if (!(error instanceof WebhookSignatureError)) throw error;
    if (error.problem !== 'bad_json') {
      rx.log(`webhook rejected: ${error.problem}`);
      return refuse(rx, res, 401, error.message, error.problem);
    }
    // Signed by the provider but not JSON: retrying cannot fix it, so it is recorded as
    // unparseable.
    verified = {
      category: req.headers['x-wsb-category'] as string | undefined,
      requestId: req.headers['x-wsb-request-id'] as string | undefined,
      payload: undefined,
    };
  }
  return {
    category: verified.category ?? '',
    requestId: verified.requestId?.trim() || bodyRequestId(rawBody),
    rawBody,
    payload: verified.payload,
  };
}

/**
 * A delivery handled once across repeats: one already recorded, or in progress here, or claimed
 * by another replica that records it, is a duplicate; otherwise it is settled. A failure is not
 * recorded, so the provider's retry handles it again.
 */
async function handleOnce(rx: Receiver, delivery: VerifiedDelivery): Promise<Settled> {
  const { requestId, category } = delivery;
  const duplicate: Settled = { requestId, category, outcome: 'duplicate', workflowIds: [] };
  if (await rx.store.get(requestId)) return duplicate;
  const running = rx.inFlight.get(requestId);
  if (running) {
    await running; // throws like the first one did: the provider retries both
    return duplicate;
  }
  const work = (async () => {
    if ((await claim(rx, requestId)) === 'handled') return duplicate;
    try {
      return await settle(rx, delivery);
    } catch (error) {
      // Not recorded: let the provider's retry claim it at once, on whichever replica it reaches.
      await rx.store.release?.(requestId).catch(() => undefined);
      throw error;
    }
  })();
  rx.inFlight.set(requestId, work);
  try {
    return await work;
  } finally {
    rx.inFlight.delete(requestId);
  }
}

/**
 * Takes the right to forward, waiting while another replica holds it (until it records or its lease
 * ends).
 */
async function claim(rx: Receiver, requestId: string): Promise<'claimed' | 'handled'> {
  if (!rx.store.claim) return 'claimed';
  const deadline = Date.now() + rx.claimWaitMs;
  for (;;) {
    const found = await rx.store.claim(requestId);
    if (found !== 'busy') return found;
    if (Date.now() > deadline) throw new Error(`delivery ${requestId} is being forwarded by another receiver`);
    await sleep(250);
  }
}

/** The delivery parsed by its category's schema, signalled to its owners, and recorded. */
async function settle(rx: Receiver, delivery: VerifiedDelivery): Promise<Settled> {
  const { requestId, category, rawBody } = delivery;
  const parsed = parseEvent(category, delivery.payload);
  const base = { requestId, category, recordedAt: '', workflowIds: [] as string[] };
  let entry: WebhookEntry;
  let signalledAtMs: number | undefined;
  if (parsed.kind === 'unknown_category') {
    entry = { ...base, outcome: 'unknown_category', body: rawBody.toString('utf8') };
  } else if (parsed.kind === 'unparseable') {
    entry = { ...base, outcome: 'unparseable', problem: parsed.problem };
  } else if (parsed.kind === 'not_forwarded') {
    entry = { ...base, outcome: 'not_forwarded', record: parsed.event.record };
  } else {
    const event = { ...parsed.event, requestId };
    // The card's own workflow, by its derived id, and the other owners, together
    // (webhooks/card-route.ts).
    const workflowIds = await deliverToOwners(event, { cardEntities: rx.opts.cardEntities, forwarder: rx.forwarder });
    if (workflowIds.length > 0) signalledAtMs = performance.now();
    entry = { ...base, outcome: workflowIds.length > 0 ? 'signalled' : 'no_owner', workflowIds, record: event.record };
  }
  entry.recordedAt = new Date().toISOString();
  await rx.store.append(entry);
  return {
    requestId,
    category,
    outcome: entry.outcome,
    workflowIds: entry.workflowIds,
    ...(signalledAtMs === undefined ? {} : { signalledAtMs }),
  };
}

/** The forwarder the options name, or one over their Temporal client. */
function forwarderOf(opts: WebhookReceiverOptions): EventForwarder {
  const chosen =
    opts.forwarder ??
    (opts.client ? createRouteForwarder(opts.client, opts.routes ? { routes: opts.routes } : {}) : undefined);
  if (!chosen) throw new Error('startWebhookReceiver: pass a Temporal `client` or a `forwarder`');
  return chosen;
}

/** Starts the receiver on loopback (by default) and resolves once it listens. */
export async function startWebhookReceiver(opts: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const forwarder = forwarderOf(opts);
  const ownStore = opts.store === undefined;
  const rx: Receiver = {
    // Read once: a key given as text would otherwise be parsed again for every delivery, and a bad
    // one is refused at start rather than at the first webhook.
    opts: { ...opts, platformPublicKey: publicKeyFrom(opts.platformPublicKey, 'platform public key') },
    forwarder,
    store: opts.store ?? (await openFileWebhookStore(opts.dataDir ? { dir: opts.dataDir } : {})),
    pathname: opts.path ?? '/webhooks',
    maxBodyBytes: opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    claimWaitMs: opts.claimWaitMs ?? 5_000,
    log: opts.log ?? (() => undefined),
    inFlight: new Map(),
  };
  // A provider sends a webhook's few kilobytes at once: a client still sending its headers or body
  // after these limits is answered 408 and dropped (checked every second, per connection, so the
  // others are served meanwhile), and cannot hold connections open a few bytes at a time.
  const limits = serverLimits({
    headersTimeoutMs: opts.headersTimeoutMs,
    requestTimeoutMs: opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  });
  const server = createServer(limits, (req, res) => {
    if (opts.health?.(req, res)) return;
    handleRequest(rx, req, res).catch((error: unknown) => {
      // Temporal unreachable, disk full...: not acknowledged, so the provider delivers it again.
      const reason = error instanceof Error ? error.message : String(error);
      rx.log(`webhook not handled, provider will retry: ${reason}`);
      opts.onRefused?.({ httpStatus: 503, kind: 'failed', reason });
      if (!res.headersSent) failure(res, 503, 'temporarily unable to process the event; retry later');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${rx.pathname}`,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await Promise.allSettled([...rx.inFlight.values()]);
      if (ownStore) await rx.store.close();
    },
  };
}
