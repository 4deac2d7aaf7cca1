/**
 * `cardflow sandbox ...`: drive the provider sandbox's test helpers (tools/sandbox/README.md) from
 * a terminal, as the Stripe CLI's `trigger` and `listen` drive Stripe's test mode: make an
 * authorization happen, decide a review, credit an on-chain deposit, re-deliver a webhook, watch
 * deliveries, set faults, read the commit log. The sandbox is the one CARDFLOW_PROVIDER_BASE_URL
 * and CARDFLOW_PROVIDER_API_KEY name (what `npm run sandbox` prints); refused in production.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseJson, plainJson } from '../../provider/json';
import { AMOUNT_RE } from '../../provider/rules';
import { resolveEnvironment } from '../../platform/config/environment';
import { type CliContext, type Command, ExitCodes, parseJsonText, printResult, UsageError } from './context';

interface SandboxTarget {
  url: string;
  apiKey: string;
}

/**
 * The sandbox to call, from the interlock's verdict on the configuration the CLI read once
 * (platform/config/environment.ts): the API key goes to a `/sandbox/` path only when the
 * environment is a sandbox and the provider host is this machine or a listed sandbox host, never to
 * anything production could mean.
 */
function sandboxOf(ctx: CliContext): SandboxTarget {
  const resolved = resolveEnvironment(ctx.config);
  if (resolved.env === 'production') throw new UsageError('sandbox commands are refused with CARDFLOW_ENV=production');
  // The key as every process reads a secret: CARDFLOW_PROVIDER_API_KEY, or the file _FILE names.
  const apiKey = ctx.config.CARDFLOW_PROVIDER_API_KEY?.value;
  if (!resolved.provider || !apiKey)
    throw new UsageError(
      'sandbox commands need CARDFLOW_PROVIDER_BASE_URL and CARDFLOW_PROVIDER_API_KEY or CARDFLOW_PROVIDER_API_KEY_FILE (npm run sandbox prints them)',
    );
  if (!resolved.providerIsSandbox)
    throw new UsageError(
      'sandbox commands need a sandbox: CARDFLOW_PROVIDER_BASE_URL on this machine or a host listed in CARDFLOW_SANDBOX_HOSTS',
    );
  return { url: resolved.provider.href.replace(/\/+$/, ''), apiKey };
}

/**
 * Calls a sandbox helper (`POST /sandbox/<name>`) and returns its data, numbers as exact strings.
 */
export async function callSandboxHelper(target: SandboxTarget, name: string, body: object): Promise<unknown> {
  const response = await fetch(`${target.url}/sandbox/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-WSB-API-KEY': target.apiKey },
    body: JSON.stringify(body),
  });
  const envelope = plainJson(parseJson(await response.text())) as { success?: boolean; msg?: string; data?: unknown };
  if (!envelope.success) throw new Error(`sandbox ${name}: ${envelope.msg ?? `HTTP ${response.status}`}`);
  return envelope.data;
}

function amountArg(option: string, value: string | undefined): string {
  if (!value || !AMOUNT_RE.test(value)) throw new UsageError(`${option}: must be a decimal amount such as 12.00`);
  return value;
}

const SUBCOMMANDS: Record<string, (ctx: CliContext, args: readonly (string | undefined)[]) => Promise<number>> = {
  async trigger(ctx, [what]) {
    if (what !== 'authorization') throw new UsageError('sandbox trigger needs: authorization');
    if (!ctx.values.card) throw new UsageError('sandbox trigger authorization needs --card <cardNo>');
    const data = await callSandboxHelper(sandboxOf(ctx), 'authorizeCard', {
      cardNo: ctx.values.card,
      type: ctx.values.type ?? 'auth',
      amount: amountArg('--amount', ctx.values.amount),
      ...(ctx.values.merchant ? { merchantName: ctx.values.merchant } : {}),
    });
    printResult(ctx, data, () => `authorization triggered on card ${ctx.values.card}: ${JSON.stringify(data)}`);
    return ExitCodes.done;
  },
  async review(ctx, [holderId]) {
    if (!holderId) throw new UsageError('sandbox review needs a <holderId>');
    if (Boolean(ctx.values.approve) === (ctx.values.reject !== undefined))
      throw new UsageError('sandbox review needs one of --approve or --reject "<reason>"');
    const data = await callSandboxHelper(sandboxOf(ctx), 'decideCardholderReview', {
      holderId,
      outcome: ctx.values.approve ? 'pass' : 'reject',
      ...(ctx.values.reject ? { description: ctx.values.reject } : {}),
    });
    printResult(
      ctx,
      data,
      () => `cardholder ${holderId}: ${ctx.values.approve ? 'approved' : 'rejected'} at this stage`,
    );
    return ExitCodes.done;
  },
  async 'credit-deposit'(ctx, [address, amount]) {
    if (!address) throw new UsageError('sandbox credit-deposit needs <address> <amount>');
    const data = await callSandboxHelper(sandboxOf(ctx), 'creditWalletDeposit', {
      address,
      amount: amountArg('<amount>', amount),
      ...(ctx.values.coin ? { coinKey: ctx.values.coin } : {}),
    });
    printResult(ctx, data, () => `on-chain deposit of ${amount} to ${address}: ${JSON.stringify(data)}`);
    return ExitCodes.done;
  },
  async resend(ctx, [requestId]) {
    if (!requestId) throw new UsageError('sandbox resend needs a <requestId> (cardflow sandbox listen shows them)');
    const data = (await callSandboxHelper(sandboxOf(ctx), 'webhooks/resend', { requestId })) as {
      category?: string;
      status?: string;
    };
    printResult(ctx, data, () => `re-delivered ${data.category ?? 'webhook'} ${requestId}: ${data.status ?? '?'}`);
    return ExitCodes.done;
  },
  async listen(ctx) {
    const target = sandboxOf(ctx);
    const shown = new Map<string, number>();
    while (!ctx.io.signal?.aborted) {
      const log = (await callSandboxHelper(target, 'webhooks/log', {})) as Array<{
        requestId: string;
        category: string;
        status: string;
        attempts: Array<{ httpStatus: number | null; acknowledged: boolean }>;
      }>;
      for (const delivery of log) {
        if (shown.get(delivery.requestId) === delivery.attempts.length) continue;
        shown.set(delivery.requestId, delivery.attempts.length);
        const last = delivery.attempts.at(-1);
        printResult(
          ctx,
          delivery,
          () =>
            `${delivery.category} ${delivery.requestId} ${delivery.status}${last ? ` (attempt ${delivery.attempts.length}: HTTP ${last.httpStatus ?? '-'})` : ''}`,
        );
      }
      await sleep(1000, undefined, ctx.io.signal ? { signal: ctx.io.signal } : {}).catch(() => undefined);
    }
    return ExitCodes.done;
  },
  async faults(ctx) {
    const body = ctx.values.reset
      ? { reset: true }
      : ctx.values.faults
        ? (parseJsonText(ctx.values.faults, '--faults') as object)
        : {};
    const data = await callSandboxHelper(sandboxOf(ctx), 'faults', body);
    printResult(ctx, data, () => `faults: ${JSON.stringify(data)}`);
    return ExitCodes.done;
  },
  async commits(ctx) {
    const data = (await callSandboxHelper(
      sandboxOf(ctx),
      'commits',
      ctx.values.operation ? { operation: ctx.values.operation } : {},
    )) as Array<{ seq: number; operation: string; dropped: boolean; refs: Record<string, string> }>;
    printResult(ctx, data, () =>
      data
        .map((c) => `${c.seq} ${c.operation}${c.dropped ? ' (answer dropped)' : ''} ${JSON.stringify(c.refs)}`)
        .join('\n'),
    );
    return ExitCodes.done;
  },
};

export const SANDBOX_COMMAND: Command = {
  name: 'sandbox',
  usage: [
    'sandbox trigger authorization --card <cardNo> --amount <decimal> [--merchant <name>] [--type auth|refund|verification|Void|maintain_fee]',
    'sandbox review <holderId> --approve | --reject "<reason>"',
    'sandbox credit-deposit <address> <amount> [--coin <coinKey>]',
    'sandbox resend <requestId>',
    'sandbox listen [--json]',
    'sandbox faults [--faults <json> | --reset]',
    'sandbox commits [--operation <name>] [--json]',
  ],
  summary: "drive the provider sandbox's test helpers: authorizations, reviews, deposits, webhooks, faults",
  details: [
    'The sandbox is CARDFLOW_PROVIDER_BASE_URL with CARDFLOW_PROVIDER_API_KEY (npm run sandbox prints them).',
    'listen prints each webhook delivery and attempt until Ctrl-C; resend re-delivers one by its request id.',
  ],
  options: ['card', 'amount', 'merchant', 'type', 'approve', 'reject', 'coin', 'faults', 'reset', 'operation', 'json'],
  run: (ctx, [sub, ...rest]) => {
    const run = sub && Object.hasOwn(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub] : undefined;
    if (!run) throw new UsageError(`sandbox needs one of ${Object.keys(SUBCOMMANDS).join(', ')}`);
    return run(ctx, rest);
  },
};
