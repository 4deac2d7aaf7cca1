/**
 * Webhook delivery as the provider does it (provider-notes, Webhooks): a POST to one callback
 * URL with Content-Type, X-WSB-CATEGORY, X-WSB-SIGNATURE (platform key over the raw body) and
 * X-WSB-REQUEST-ID (one id per event, the same on every retry). Anything but HTTP 200 with the
 * success envelope is retried after 1m, 5m, 20m, 1h, 12h and 24h, scaled by
 * `delays.webhookRetryScale` on the sandbox clock; after the last retry the event is `failed`.
 */
import { randomUUID, type KeyObject } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { parseJson, stringifyJson } from '../../../provider/json';
import { buildSignedWebhook } from '../../../provider/signing';
import type { SandboxClock, SandboxEvent } from '../contract';
import type { FaultInjector } from './faults';

/** The provider's retry intervals after a failed delivery. */
export const WEBHOOK_RETRY_SCHEDULE_MS = [60_000, 300_000, 1_200_000, 3_600_000, 43_200_000, 86_400_000] as const;
/** Wall-clock limit of one delivery attempt. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** A reordered event is released after the next event, or after this much sandbox time. */
const REORDER_HOLD_MS = 5_000;

export interface DeliveryAttempt {
  attempt: number;
  /** Sandbox time the attempt started. */
  at: number;
  /** A copy sent by the duplicate fault. */
  duplicate: boolean;
  httpStatus: number | null;
  acknowledged: boolean;
  error?: string;
}

export type DeliveryStatus = 'pending' | 'held' | 'delivered' | 'failed' | 'dropped' | 'no_url';

export interface WebhookDelivery {
  requestId: string;
  category: string;
  payload: Record<string, unknown>;
  /** The exact body sent (and signed). */
  body: string;
  emittedAt: number;
  /** URL of the latest attempt (the configured URL at emit time before any attempt). */
  url: string | null;
  status: DeliveryStatus;
  /** Faults applied: drop, duplicate, reorder, delay. */
  faults: string[];
  attempts: DeliveryAttempt[];
  /** Sandbox time of the next scheduled retry, or null. */
  nextAttemptAt: number | null;
}

export interface WebhookDeliveryOptions {
  clock: SandboxClock;
  platformPrivateKey: KeyObject;
  faults: FaultInjector;
  retryScale: number;
  url?: string | null;
  /** Diagnostics (never payloads). */
  log?: (line: string) => void;
}

interface AttemptResult {
  httpStatus: number | null;
  acknowledged: boolean;
  error?: string;
}

/** True when a receiver's answer is HTTP 200 with `{"success":true,"code":200,...}`. */
export function isAcknowledgement(httpStatus: number, body: string): boolean {
  if (httpStatus !== 200) return false;
  try {
    const parsed = parseJson(body) as Record<string, unknown> | null;
    return typeof parsed === 'object' && parsed !== null && parsed.success === true && String(parsed.code) === '200';
  } catch {
    return false;
  }
}

function post(url: string, body: string, headers: Record<string, string>): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ httpStatus: null, acknowledged: false, error: `invalid webhook URL ${url}` });
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : target.protocol === 'http:' ? httpRequest : undefined;
    if (!send) {
      resolve({ httpStatus: null, acknowledged: false, error: `unsupported webhook URL protocol ${target.protocol}` });
      return;
    }
    const payload = Buffer.from(body, 'utf8');
    const req = send(
      target,
      {
        method: 'POST',
        agent: false,
        timeout: ATTEMPT_TIMEOUT_MS,
        headers: { ...headers, 'content-length': String(payload.length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          resolve({
            httpStatus: status,
            acknowledged: isAcknowledgement(status, Buffer.concat(chunks).toString('utf8')),
          });
        });
        res.on('error', (err) =>
          resolve({ httpStatus: res.statusCode ?? null, acknowledged: false, error: err.message }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${ATTEMPT_TIMEOUT_MS} ms`)));
    req.on('error', (err) => resolve({ httpStatus: null, acknowledged: false, error: err.message }));
    req.end(payload);
  });
}

/** Delivers engine events; keeps a log of every event and attempt. */
export class WebhookDeliveries {
  private url: string | null;
  private retryScale: number;
  private readonly records: WebhookDelivery[] = [];
  private held: { delivery: WebhookDelivery; cancel: () => void } | undefined;
  private busy = 0;
  private waiters: Array<() => void> = [];
  private readonly cancels = new Set<() => void>();
  private stopped = false;

  constructor(private readonly options: WebhookDeliveryOptions) {
    this.url = options.url ?? null;
    this.retryScale = options.retryScale;
  }

  /** The callback URL (null: events are logged as `no_url` and not sent). */
  get callbackUrl(): string | null {
    return this.url;
  }

  setUrl(url: string | null): void {
    if (url !== null) new URL(url); // throws on an invalid URL
    this.url = url;
  }

  setRetryScale(scale: number): void {
    this.retryScale = scale;
  }

  /** Every event so far, oldest first (copies). */
  log(): WebhookDelivery[] {
    return this.records.map((r) => ({ ...r, faults: [...r.faults], attempts: r.attempts.map((a) => ({ ...a })) }));
  }

  /** The engine's `emit`: schedules delivery of one event. */
  emit(event: SandboxEvent): void {
    const body = stringifyJson(event.payload);
    const delivery: WebhookDelivery = {
      requestId: randomUUID(),
      category: event.category,
      payload: event.payload,
      body,
      emittedAt: this.options.clock.now(),
      url: this.url,
      status: 'pending',
      faults: [],
      attempts: [],
      nextAttemptAt: null,
    };
    this.records.push(delivery);
    if (this.stopped) return;
    if (this.url === null) {
      delivery.status = 'no_url';
      return;
    }
    const fault = this.options.faults.forWebhook();
    if (fault.drop) {
      delivery.faults.push('drop');
      delivery.status = 'dropped';
      return;
    }
    if (fault.duplicate) delivery.faults.push('duplicate');
    if (fault.delayMs > 0) delivery.faults.push('delay');
    const previouslyHeld = this.held;
    if (fault.reorder && !previouslyHeld) {
      delivery.faults.push('reorder');
      delivery.status = 'held';
      const cancel = this.later(REORDER_HOLD_MS, () => this.releaseHeld());
      this.held = { delivery, cancel };
      return;
    }
    this.later(fault.delayMs, () => {
      // Busy until the held event (if any) is queued behind this one, so idle() sees both.
      this.enter();
      void this.attempt(delivery, 1)
        .then(() => {
          if (previouslyHeld && this.held === previouslyHeld) this.releaseHeld();
        })
        .finally(() => this.leave());
    });
  }

  /** Sends a held (reordered) event now. */
  releaseHeld(): void {
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    held.cancel();
    held.delivery.status = 'pending';
    this.later(0, () => void this.attempt(held.delivery, 1));
  }

  /**
   * Delivers an event again now, with its request id and body (as a provider's "resend" from its
   * dashboard would): what a developer uses to see a repeated delivery handled once.
   */
  async resend(requestId: string): Promise<WebhookDelivery | undefined> {
    const delivery = this.records.find((r) => r.requestId === requestId);
    if (!delivery) return undefined;
    await this.attempt(delivery, delivery.attempts.length + 1);
    return this.log().find((r) => r.requestId === requestId);
  }

  /**
   * Resolves when no delivery attempt is running or queued for right now (scheduled retries do not
   * count).
   */
  idle(): Promise<void> {
    if (this.busy === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Cancels scheduled work; attempts already running finish. */
  stop(): void {
    this.stopped = true;
    for (const cancel of [...this.cancels]) cancel();
    this.cancels.clear();
    this.held = undefined;
  }

  private enter(): void {
    this.busy += 1;
  }

  private leave(): void {
    this.busy -= 1;
    if (this.busy === 0) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const w of waiters) w();
    }
  }

  /**
   * Runs fn after ms of sandbox time; 0 runs on the next macrotask and counts as busy until it ran.
   */
  private later(ms: number, fn: () => void): () => void {
    if (this.stopped) return () => undefined;
    if (ms <= 0) {
      this.enter();
      const handle = setImmediate(() => {
        this.cancels.delete(cancel);
        try {
          fn();
        } finally {
          this.leave();
        }
      });
      const cancel = () => {
        clearImmediate(handle);
        if (this.cancels.delete(cancel)) this.leave();
      };
      this.cancels.add(cancel);
      return cancel;
    }
    const cancelClock = this.options.clock.schedule(ms, () => {
      this.cancels.delete(cancel);
      fn();
    });
    const cancel = () => {
      cancelClock();
      this.cancels.delete(cancel);
    };
    this.cancels.add(cancel);
    return cancel;
  }

  private async attempt(delivery: WebhookDelivery, n: number): Promise<void> {
    if (this.stopped) return;
    this.enter();
    try {
      // Each attempt goes to the URL configured now, as a dashboard change would apply.
      const url = this.url;
      delivery.url = url;
      if (url === null) {
        delivery.status = 'no_url';
        return;
      }
      const signed = buildSignedWebhook({
        body: delivery.body,
        category: delivery.category,
        platformPrivateKey: this.options.platformPrivateKey,
        requestId: delivery.requestId,
      });
      const at = this.options.clock.now();
      const result = await post(url, delivery.body, signed.headers);
      delivery.attempts.push({ attempt: n, at, duplicate: false, ...result });
      if (result.acknowledged) {
        delivery.status = 'delivered';
        delivery.nextAttemptAt = null;
      } else {
        this.options.log?.(
          `webhook ${delivery.category} ${delivery.requestId} attempt ${n} not acknowledged (${result.error ?? `HTTP ${result.httpStatus}`})`,
        );
        this.scheduleRetry(delivery, n);
      }
      if (n === 1 && delivery.faults.includes('duplicate')) {
        const copy = await post(url, delivery.body, signed.headers);
        delivery.attempts.push({ attempt: n, at: this.options.clock.now(), duplicate: true, ...copy });
      }
    } finally {
      this.leave();
    }
  }

  private scheduleRetry(delivery: WebhookDelivery, failedAttempt: number): void {
    const interval = WEBHOOK_RETRY_SCHEDULE_MS[failedAttempt - 1];
    if (interval === undefined) {
      delivery.status = 'failed';
      delivery.nextAttemptAt = null;
      return;
    }
    const delay = Math.round(interval * this.retryScale);
    delivery.status = 'pending';
    delivery.nextAttemptAt = this.options.clock.now() + delay;
    this.later(delay, () => void this.attempt(delivery, failedAttempt + 1));
  }
}
