/**
 * A card's details (number, CVV, expiry; a gift card's activation link), shown to the customer it
 * belongs to through a merchant's backend. Read here, in the calling process, straight from the
 * provider (`card/sensitive`) and decrypted with the merchant private key: never through a
 * workflow, so no history, log line, metric or span holds them. Each reveal is first claimed in
 * the shared reveal log (platform/storage/reveal-log.ts: who, why, when; never a value), which
 * refuses a card shown too often, naming when the next reveal is allowed. A claim counts even when
 * the provider read then fails: the limit errs on the side of showing less. docs/card-details.md.
 */
import { createProviderClient, type ProviderClient } from '../provider/client';
import { providerConfig } from '../provider/config';
import type { KeyInput } from '../provider/keys';
import { decryptSensitive } from '../provider/sensitive';
import { cardNoField } from '../domain/fields';
import { ClientErrorTypes } from '../domain/failure-types';
import type { Configuration } from '../platform/config/schema';
import { revealLogFor } from '../platform/storage/from-config';
import type { RevealLimit, RevealLog, RevealRecord } from '../platform/storage/reveal-log';
import { InvalidInputError } from './validation';
import { parseField } from './inputs';

/** At most 3 reveals of one card within any hour, whoever asks. */
export const DEFAULT_REVEAL_LIMIT: RevealLimit = { count: 3, windowMs: 3_600_000 };

/** A card's details, decrypted: a gift card has only `activateUrl`. */
export interface CardDetails {
  cardNo: string;
  cardNumber?: string;
  cvv?: string;
  /** As the provider gives it (e.g. MM/YY). */
  expireDate?: string;
  activateUrl?: string;
}

/** Who asks and why: recorded with the reveal. */
export interface RevealRequest {
  caller: string;
  reason: string;
}

/** The card was shown too often; `nextAllowedAt` says when it may be shown again. */
export class CardRevealRefusedError extends Error {
  readonly type = ClientErrorTypes.cardRevealRefused;
  constructor(
    readonly cardNo: string,
    readonly recent: number,
    readonly nextAllowedAt: Date,
    limit: RevealLimit,
  ) {
    super(
      `card ${cardNo}: its details were shown ${recent} time(s) within ${Math.round(limit.windowMs / 60_000)} min ` +
        `(the limit is ${limit.count}); the next reveal is allowed at ${nextAllowedAt.toISOString()}`,
    );
    this.name = 'CardRevealRefusedError';
  }
}

export interface CardDetailsDeps {
  provider: Pick<ProviderClient, 'getCardSensitiveData'>;
  log: RevealLog;
  merchantPrivateKey: KeyInput;
  limit?: RevealLimit;
}

function requestOf(request: RevealRequest): RevealRequest {
  const problems: string[] = [];
  for (const field of ['caller', 'reason'] as const) {
    const value: unknown = request[field];
    if (typeof value !== 'string' || value.trim() === '')
      problems.push(`${field}: is required (it is recorded with the reveal)`);
    else if (value.length > 200) problems.push(`${field}: must be at most 200 characters`);
  }
  if (problems.length) throw new InvalidInputError('card details reveal', problems);
  return { caller: request.caller.trim(), reason: request.reason.trim() };
}

/** Claims a reveal of `cardNo` (refused past the limit), then reads and decrypts its details. */
export async function revealCardDetails(
  deps: CardDetailsDeps,
  cardNo: string,
  request: RevealRequest,
  opts: { signal?: AbortSignal } = {},
): Promise<CardDetails> {
  const valid = parseField(cardNoField, 'cardNo', cardNo);
  const who = requestOf(request);
  const limit = deps.limit ?? DEFAULT_REVEAL_LIMIT;
  const claim = await deps.log.claim({ cardNo: valid, ...who }, limit);
  if (!claim.allowed) throw new CardRevealRefusedError(valid, claim.recent, new Date(claim.nextAt), limit);
  const data = await deps.provider.getCardSensitiveData({ cardNo: valid }, opts.signal ? { signal: opts.signal } : {});
  const open = (value: string | null | undefined) =>
    value ? decryptSensitive(value, deps.merchantPrivateKey) : undefined;
  const details: CardDetails = { cardNo: valid };
  const cardNumber = open(data.cardNumber);
  const cvv = open(data.cvv);
  const expireDate = open(data.expireDate);
  const activateUrl = open(data.activateUrl);
  if (cardNumber !== undefined) details.cardNumber = cardNumber;
  if (cvv !== undefined) details.cvv = cvv;
  if (expireDate !== undefined) details.expireDate = expireDate;
  if (activateUrl !== undefined) details.activateUrl = activateUrl;
  return details;
}

/**
 * A backend's reader of card details, with the provider settings and the reveal log its
 * configuration names.
 */
export interface CardDetailsReader {
  reveal(cardNo: string, request: RevealRequest, opts?: { signal?: AbortSignal }): Promise<CardDetails>;
  /** The reveals recorded for `cardNo` (who, why, when), oldest first. */
  reveals(cardNo: string): Promise<RevealRecord[]>;
  close(): Promise<void>;
}

/**
 * Opens the reader from the configuration (CARDFLOW_PROVIDER_*, the merchant private key, the
 * reveal log's store).
 */
export function openCardDetails(config: Configuration, opts: { limit?: RevealLimit } = {}): CardDetailsReader {
  const settings = providerConfig(config);
  const provider = createProviderClient(settings);
  const log = revealLogFor(config);
  const deps: CardDetailsDeps = {
    provider,
    log,
    merchantPrivateKey: settings.merchantPrivateKey,
    ...(opts.limit ? { limit: opts.limit } : {}),
  };
  return {
    reveal: (cardNo, request, callOpts) => revealCardDetails(deps, cardNo, request, callOpts),
    reveals: (cardNo) => log.list(parseField(cardNoField, 'cardNo', cardNo)),
    async close() {
      await provider.close();
      await log.close();
    },
  };
}
