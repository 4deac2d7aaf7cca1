/**
 * The seam between the sandbox's engine (state and rules: `tools/sandbox/engine/**`) and its
 * HTTP shell (`tools/sandbox/server/**`): authentication, envelopes, signing, faults and webhook
 * delivery live in the shell; every provider rule and every piece of state lives in the engine.
 */

/** Webhook categories the provider sends (provider-notes, Webhooks). */
export type WebhookCategory =
  | 'card_transaction'
  | 'card_auth_transaction'
  | 'card_fee_patch'
  | 'card_3ds'
  | 'card_holder'
  | 'wallet_transaction_v2'
  | 'physical_card'
  | 'work';

/** An event the engine raises; the shell delivers it as a signed webhook. */
export interface SandboxEvent {
  category: WebhookCategory;
  /**
   * Equals the matching query record, wire-ready (numbers as LosslessNumber where the wire has
   * numbers).
   */
  payload: Record<string, unknown>;
}

/**
 * A rule violation or business rejection; the shell answers a failure envelope `{success:false,
 * code, msg, data:null}`.
 */
export class SandboxError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

/** Failure codes the sandbox uses (the provider publishes none; 40002 is seen in production). */
export const SandboxErrorCode = {
  /** A parameter breaks a rule of the spec (provider-notes: 40002 for parameter errors). */
  parameter: 40002,
  /** merchantOrderNo already used by any operation ("Duplicate order number"). */
  duplicateOrder: 40003,
  /** The thing named does not exist (card, holder, account, card type, file...). */
  notFound: 40004,
  /**
   * The operation is not allowed in the current state (update a holder not in reject, freeze a
   * cancelled card...).
   */
  state: 40005,
  /** Not enough available balance. */
  insufficientBalance: 40006,
  /** Missing or unknown X-WSB-API-KEY. */
  unauthorized: 40101,
  /** X-WSB-SIGNATURE missing or does not verify. */
  badSignature: 40102,
  /** Unknown path, wrong method, malformed JSON, body too large. */
  badRequest: 40000,
  /** Injected fault. */
  internal: 500,
} as const;

/** Virtual time: every asynchronous step of the sandbox is scheduled on it. */
export interface SandboxClock {
  /** Current sandbox time, epoch milliseconds. */
  now(): number;
  /** Runs fn after delayMs of sandbox time (0 = on the next tick). Returns a cancel function. */
  schedule(delayMs: number, fn: () => void): () => void;
  /** Manual clocks: moves time forward, running everything due, in order. Real clocks: no-op. */
  advance(ms: number): Promise<void>;
  /**
   * Runs everything already due (manual clock) / waits for pending zero-delay work (real clock).
   */
  settle(): Promise<void>;
}

/** Delays (sandbox-clock milliseconds) of the asynchronous steps; 0 for tests. */
export interface SandboxDelays {
  /** Platform (admin) review of a cardholder. */
  reviewAdminMs: number;
  /** Bank (channel) review of a cardholder. */
  reviewChannelMs: number;
  /**
   * wait_process -> processing -> success/fail of card operations (create, deposit, freeze, ...);
   * each step.
   */
  cardOperationMs: number;
  /** Between block confirmations of an on-chain deposit. */
  blockConfirmationMs: number;
  /** A work order's processing. */
  workOrderMs: number;
  /** Multiplier on the provider's webhook retry schedule (1m, 5m, 20m, 1h, 12h, 24h). */
  webhookRetryScale: number;
}

/** Uploaded file handed from the shell's multipart parser to the engine. */
export interface UploadedFile {
  filename: string;
  contentType: string;
  data: Uint8Array;
}

export interface SandboxEngineDeps {
  clock: SandboxClock;
  /** Seeded PRNG in [0, 1): same seed, same ids and outcomes. */
  random: () => number;
  /**
   * Encrypts a sensitive value with the merchant public key, as the provider does (RSA PKCS#1 v1.5
   * blocks, base64).
   */
  encrypt: (plaintext: string) => string;
  /** Raises a webhook event. */
  emit: (event: SandboxEvent) => void;
  delays: SandboxDelays;
}

export interface SandboxEngine {
  /**
   * Handles one provider operation, named as in `provider/operations.ts`, whose body the shell has
   * already authenticated and parsed with that operation's request schema. Returns the envelope's
   * `data`, wire-ready. Throws SandboxError for any rule violation, before changing anything.
   */
  handle(operation: string, request: Record<string, unknown>, file?: UploadedFile): unknown;
  /** Test helpers, exposed by the shell at `POST /sandbox/<name>` (documented in the README). */
  readonly helpers: Readonly<Record<string, (body: Record<string, unknown>) => unknown>>;
  /** Money invariant: sum of all balances + fees collected - external credits is constant. */
  moneySnapshot(): { totalBalances: string; feesCollected: string; externalCredits: string };
}
