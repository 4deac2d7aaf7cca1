/**
 * Notifications from the command line (docs/notifications.md):
 * - `cardflow events list`: the notifications the backend did not take within the delivery window
 *   (the undelivered store, platform/notifications/store.ts), and `cardflow events resend <id>` to
 *   send one again, signed now, with its id unchanged;
 * - `cardflow listen --forward-to <url>`: for development, like the Stripe CLI's `listen`: receives
 *   the worker's notifications on a local port (point CARDFLOW_NOTIFY_URL at it), prints each one,
 *   checks its signature when the secret is set, and forwards it unchanged (body and signature) to
 *   the backend running on the developer's machine, answering the worker with the backend's status
 *   so a failure is retried as in production. Neither contacts Temporal.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  NotificationSignatureError,
  SIGNATURE_HEADER,
  STANDARD_WEBHOOK_HEADERS,
  verifySignature,
} from '../../platform/notifications/signature';
import { notificationSettings, openUndeliveredStore } from '../../platform/notifications/from-config';
import { NotificationPostError, postNotification } from '../../platform/notifications/sender';
import type { UndeliveredEntry } from '../../platform/notifications/store';
import { type CliContext, type Command, ExitCodes, printResult, timestamped, UsageError } from './context';

/** The port `listen` takes by default. */
export const DEFAULT_LISTEN_PORT = 4300;
/** Largest notification `listen` takes (a reconciliation batch of findings is the largest). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

function line(entry: UndeliveredEntry): string {
  const state = entry.resentAt
    ? `resent ${entry.resentAt}`
    : entry.body
      ? 'undelivered'
      : 'undelivered (not resendable)';
  return `${entry.id}  ${entry.type}  ${entry.workflowId}  ${entry.recordedAt}  ${state}: ${entry.reason}`;
}

async function events(ctx: CliContext, args: readonly (string | undefined)[]): Promise<number> {
  const [action, id, extra] = args;
  if (action === 'list' && id === undefined) return list(ctx);
  if (action === 'resend' && id !== undefined && extra === undefined) return resend(ctx, id);
  throw new UsageError('events: expected `list` or `resend <id>`');
}

async function list(ctx: CliContext): Promise<number> {
  const store = await openUndeliveredStore(ctx.config);
  try {
    const entries = await store.list({ pending: !ctx.values.all });
    printResult(ctx, entries, () =>
      entries.length === 0
        ? `no undelivered notifications${ctx.values.all ? '' : ' waiting (--all lists those resent too)'}`
        : entries.map(line).join('\n'),
    );
    return ExitCodes.done;
  } finally {
    await store.close();
  }
}

async function resend(ctx: CliContext, id: string): Promise<number> {
  if (!/^evt_[A-Za-z0-9_]{1,120}$/.test(id)) throw new UsageError(`${id}: not an event id (evt_...)`);
  const settings = notificationSettings(ctx.config);
  if (!settings) throw new UsageError('CARDFLOW_NOTIFY_URL is not set: there is no backend to resend to');
  const store = await openUndeliveredStore(ctx.config);
  try {
    const entry = await store.get(id);
    if (!entry) {
      ctx.io.err(`${id}: not among the undelivered notifications (cardflow events list)`);
      return ExitCodes.failed;
    }
    if (!entry.body) {
      ctx.io.err(`${id}: ${entry.type} is not resendable (${entry.reason}); its value was not kept`);
      return ExitCodes.failed;
    }
    try {
      const { status } = await postNotification(
        settings.target,
        { id, body: entry.body },
        {
          ...(ctx.io.signal ? { signal: ctx.io.signal } : {}),
        },
      );
      const at = new Date().toISOString();
      await store.markResent(id, at);
      printResult(ctx, { id, status, resentAt: at }, () => `${id}: delivered (${status})`);
      return ExitCodes.done;
    } catch (error) {
      if (!(error instanceof NotificationPostError)) throw error;
      ctx.io.err(`${id}: not delivered: ${error.message}`);
      return ExitCodes.failed;
    }
  } finally {
    await store.close();
  }
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks) : undefined));
    req.on('error', reject);
  });
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return DEFAULT_LISTEN_PORT;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535)
    throw new UsageError('--port: must be a TCP port from 0 to 65535');
  return Number(text);
}

async function listen(ctx: CliContext, args: readonly (string | undefined)[]): Promise<number> {
  if (args.length > 0 && args[0] !== undefined) throw new UsageError('listen takes no arguments');
  const forwardTo = ctx.values['forward-to'];
  if (!forwardTo || !/^https?:\/\/[^/]/.test(forwardTo) || !URL.canParse(forwardTo))
    throw new UsageError('--forward-to: required, the http(s) URL of your backend endpoint');
  const port = parsePort(ctx.values.port);
  // During a rotation the worker signs with both; either one verifies.
  const secrets = [ctx.config.CARDFLOW_NOTIFY_SECRET, ctx.config.CARDFLOW_NOTIFY_PREVIOUS_SECRET].flatMap((s) =>
    s ? [s.value] : [],
  );
  const { io } = ctx;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const answer = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
    };
    if (req.method !== 'POST') return answer(405, 'POST notifications here');
    const body = await readBody(req);
    if (!body) return answer(413, 'too large');
    // The signature headers of either format, forwarded unchanged.
    const signed = Object.fromEntries(
      [SIGNATURE_HEADER, ...Object.values(STANDARD_WEBHOOK_HEADERS)].flatMap((name) => {
        const value = req.headers[name.toLowerCase()];
        return typeof value === 'string' ? [[name, value]] : [];
      }),
    );
    let summary = 'unparsed';
    try {
      const event = JSON.parse(body.toString('utf8')) as { id?: unknown; type?: unknown };
      summary = `${String(event.type)} ${String(event.id)}`;
    } catch {
      summary = 'not JSON';
    }
    if (secrets.length > 0) {
      try {
        verifySignature(body, signed, secrets);
      } catch (error) {
        if (!(error instanceof NotificationSignatureError)) throw error;
        io.out(timestamped(`${summary}  refused: ${error.message}`));
        return answer(400, error.reason);
      }
    }
    let status: number;
    try {
      const forwarded = await fetch(forwardTo, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signed,
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await forwarded.arrayBuffer().catch(() => undefined);
      status = forwarded.status;
    } catch (error) {
      io.out(timestamped(`${summary}  → ${forwardTo} unreachable (${(error as Error).message})`));
      return answer(502, 'forward target unreachable');
    }
    io.out(timestamped(`${summary}  → ${forwardTo} [${status}]`));
    answer(status >= 200 && status < 300 ? 200 : 502, `forwarded: ${status}`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      io.err(`cardflow listen: ${(error as Error).message}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new UsageError(`--port: ${port} is in use`) : error),
    );
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  io.out(`Ready: listening at ${url}, forwarding to ${forwardTo}`);
  io.out(`Point the worker at it: CARDFLOW_NOTIFY_URL=${url}`);
  if (secrets.length === 0)
    io.out('CARDFLOW_NOTIFY_SECRET is not set here: signatures are not checked, only forwarded');
  await new Promise<void>((resolve) => {
    if (!io.signal) return;
    if (io.signal.aborted) resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  return ExitCodes.done;
}

export const EVENTS_COMMAND: Command = {
  name: 'events',
  usage: ['events list [--all] [--json]', 'events resend <id> [--json]'],
  summary: "list the notifications the merchant's backend did not take, and send one again",
  details: [
    'list: the undelivered notifications (retried for CARDFLOW_NOTIFY_WINDOW, default 1h, then recorded); --all includes those resent since.',
    'resend <id>: posts the recorded event to CARDFLOW_NOTIFY_URL again, signed now, with the same id (the backend dedupes on it).',
    'The store is CARDFLOW_DATABASE_URL, else the folder CARDFLOW_NOTIFY_DATA_DIR (default .data/notifications), as the worker records it.',
  ],
  options: ['all', 'json'],
  run: events,
};

export const LISTEN_COMMAND: Command = {
  name: 'listen',
  usage: ['listen --forward-to <url> [--port <port>]'],
  summary: "receive the worker's notifications on a local port and forward them to your backend (development)",
  details: [
    `Listens on 127.0.0.1:--port (default ${DEFAULT_LISTEN_PORT}; 0 for any free one); set the worker's CARDFLOW_NOTIFY_URL to the URL it prints.`,
    'Each notification is printed, its signature checked with CARDFLOW_NOTIFY_SECRET (or CARDFLOW_NOTIFY_PREVIOUS_SECRET) when set, and forwarded unchanged (body and signature headers, either format); the worker gets 200 when your backend answered 2xx, else 502 (and retries). Ctrl-C stops.',
  ],
  options: ['forward-to', 'port'],
  run: listen,
};
