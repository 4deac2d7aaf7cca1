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
import type { KeyInput } from '../api/keys';
import { WEBHOOK_ACK_BODY, WebhookSignatureError, verifyWebhook } from '../api/signing';
import type { HealthRoutes } from '../health/routes';
import { BodyTooLargeError, readBody, serverLimits } from '../http/body';
import { type CardEntityDelivery, deliverToOwners } from './card-route';
import { type EventForwarder, createTemporalForwarder } from './forwarder';
import type { RouteStore } from '../storage/route-store';
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
export { DEFAULT_HEADERS_TIMEOUT_MS } from '../http/body';
/** The whole request, body included. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** What the receiver did with one delivery, for logs and the benchmark. */
export interface HandledWebhook {
  requestId: string;
  category: string;
  outcome: WebhookOutcome | 'duplicate';
  workflowIds: string[];
  /** `performance.now()` when the request arrived and when its outcome was settled (signal delivered, or recorded). */
  receivedAtMs: number;
  settledAtMs: number;
}

export interface WebhookReceiverOptions {
  /** The platform public key from the provider dashboard (PEM or base64 DER). */
  platformPublicKey: KeyInput;
  /** Temporal client used to find and signal owners; or pass `forwarder` directly. */
  client?: Client;
  forwarder?: EventForwarder;
  /** With `client`: where the workers record routes (storage/route-store.ts); default the machine's route file. */
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
  /** Default 5 s (`DEFAULT_HEADERS_TIMEOUT_MS`, http/body.ts). */
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
  /** `/healthz` and `/readyz` (health/routes.ts), answered beside the webhook path. */
  health?: HealthRoutes;
  /** The card-level path (webhooks/card-route.ts): each card's events reach `card-<cardNo>`, started if needed. */
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

/** Starts the receiver on loopback (by default) and resolves once it listens. */
export async function startWebhookReceiver(opts: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const chosen =
    opts.forwarder ??
    (opts.client ? createTemporalForwarder(opts.client, opts.routes ? { routes: opts.routes } : {}) : undefined);
  if (!chosen) throw new Error('startWebhookReceiver: pass a Temporal `client` or a `forwarder`');
  const forwarder: EventForwarder = chosen;
  const ownStore = opts.store === undefined;
  const store = opts.store ?? (await openFileWebhookStore(opts.dataDir ? { dir: opts.dataDir } : {}));
  const pathname = opts.path ?? '/webhooks';
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const log = opts.log ?? (() => undefined);
  const refuse = (res: ServerResponse, httpStatus: 401 | 404 | 405 | 413, message: string, reason = message): void => {
    opts.onRefused?.({ httpStatus, kind: 'refused', reason });
    failure(res, httpStatus, message);
  };
  /** Deliveries being handled, by request id: a concurrent repeat waits for the first instead of signalling twice. */
  const inFlight = new Map<string, Promise<Omit<HandledWebhook, 'receivedAtMs' | 'settledAtMs'>>>();

  const claimWaitMs = opts.claimWaitMs ?? 5_000;
  /** Takes the right to forward, waiting while another replica holds it (until it records or its lease ends). */
  async function claim(requestId: string): Promise<'claimed' | 'handled'> {
    if (!store.claim) return 'claimed';
    const deadline = Date.now() + claimWaitMs;
    for (;;) {
      const found = await store.claim(requestId);
      if (found !== 'busy') return found;
      if (Date.now() > deadline) throw new Error(`delivery ${requestId} is being forwarded by another receiver`);
      await sleep(250);
    }
  }

  async function settle(requestId: string, category: string, rawBody: Buffer, payload: unknown) {
    const parsed = parseEvent(category, payload);
    const base = { requestId, category, recordedAt: '', workflowIds: [] as string[] };
    let entry: WebhookEntry;
    if (parsed.kind === 'unknown_category') {
      entry = { ...base, outcome: 'unknown_category', body: rawBody.toString('utf8') };
    } else if (parsed.kind === 'unparseable') {
      entry = { ...base, outcome: 'unparseable', problem: parsed.problem };
    } else if (parsed.kind === 'not_forwarded') {
      entry = { ...base, outcome: 'not_forwarded', record: parsed.event.record };
    } else {
      const event = { ...parsed.event, requestId };
      // Card-level path first: the card's own workflow, by its derived id; then the other owners.
      const workflowIds = await deliverToOwners(event, { cardEntities: opts.cardEntities, forwarder });
      entry = {
        ...base,
        outcome: workflowIds.length > 0 ? 'signalled' : 'no_owner',
        workflowIds,
        record: event.record,
      };
    }
    entry.recordedAt = new Date().toISOString();
    await store.append(entry);
    return { requestId, category, outcome: entry.outcome, workflowIds: entry.workflowIds };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAtMs = performance.now();
    const url = new URL(req.url ?? '/', 'http://receiver');
    if (url.pathname !== pathname) return refuse(res, 404, `webhooks are accepted at ${pathname}`);
    if (req.method !== 'POST') return refuse(res, 405, 'webhooks are POST requests');
    let rawBody: Buffer;
    try {
      rawBody = await readBody(req, { limit: maxBodyBytes });
    } catch (error) {
      // The rest of the body is read and dropped (bounded by the request timeout), never cut off: a
      // client that sends it all before reading gets the 413, not a broken pipe.
      if (error instanceof BodyTooLargeError) return refuse(res, 413, `body larger than ${maxBodyBytes} bytes`);
      throw error;
    }
    let verified: ReturnType<typeof verifyWebhook>;
    try {
      verified = verifyWebhook({ rawBody, headers: req.headers, platformPublicKey: opts.platformPublicKey });
    } catch (error) {
      if (!(error instanceof WebhookSignatureError)) throw error;
      if (error.problem !== 'bad_json') {
        log(`webhook rejected: ${error.problem}`);
        return refuse(res, 401, error.message, error.problem);
      }
      // Signed by the provider but not JSON: retrying cannot fix it, so it is recorded as unparseable below.
      verified = {
        category: req.headers['x-wsb-category'] as string | undefined,
        requestId: req.headers['x-wsb-request-id'] as string | undefined,
        payload: undefined,
      };
    }
    const category = verified.category ?? '';
    const requestId = verified.requestId?.trim() || bodyRequestId(rawBody);
    const report = (handled: Omit<HandledWebhook, 'receivedAtMs' | 'settledAtMs'>) => {
      answer(res, 200, WEBHOOK_ACK_BODY);
      log(
        `webhook ${handled.category || '(no category)'} ${handled.requestId}: ${handled.outcome}${handled.workflowIds.length ? ` -> ${handled.workflowIds.join(', ')}` : ''}`,
      );
      opts.onHandled?.({ ...handled, receivedAtMs, settledAtMs: performance.now() });
    };
    const seen = await store.get(requestId);
    if (seen) return report({ requestId, category, outcome: 'duplicate', workflowIds: [] });
    const running = inFlight.get(requestId);
    if (running) {
      await running; // throws like the first one did: the provider retries both
      return report({ requestId, category, outcome: 'duplicate', workflowIds: [] });
    }
    const work = (async () => {
      if ((await claim(requestId)) === 'handled')
        return { requestId, category, outcome: 'duplicate' as const, workflowIds: [] };
      try {
        return await settle(requestId, category, rawBody, verified.payload);
      } catch (error) {
        // Not recorded: let the provider's retry claim it at once, on whichever replica it reaches.
        await store.release?.(requestId).catch(() => undefined);
        throw error;
      }
    })();
    inFlight.set(requestId, work);
    try {
      report(await work);
    } finally {
      inFlight.delete(requestId);
    }
  }

  // A provider sends a webhook's few kilobytes at once: a client still sending its headers or body
  // after these limits is answered 408 and dropped (checked every second, per connection, so the
  // others are served meanwhile), and cannot hold connections open a few bytes at a time.
  const limits = serverLimits({
    headersTimeoutMs: opts.headersTimeoutMs,
    requestTimeoutMs: opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  });
  const server = createServer(limits, (req, res) => {
    if (opts.health?.(req, res)) return;
    handle(req, res).catch((error: unknown) => {
      // Temporal unreachable, disk full...: not acknowledged, so the provider delivers it again.
      const reason = error instanceof Error ? error.message : String(error);
      log(`webhook not handled, provider will retry: ${reason}`);
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
    url: `http://${host}:${address.port}${pathname}`,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await Promise.allSettled([...inFlight.values()]);
      if (ownStore) await store.close();
    },
  };
}
