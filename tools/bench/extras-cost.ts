/**
 * `npx tsx tools/bench/extras-cost.ts`: what some of cardflow's extras over the thin integration
 * cost per onboarding, apart from Temporal (figures printed, nothing asserted). One onboarding's
 * seven answers and six webhooks are recorded from a sandbox, then parsed the thin way, losslessly,
 * and as cardflow does (lossless plus schemas), and delivered again and again to cardflow's
 * receiver (its log on disk, in memory, none) and to the thin receiver, with Temporal stubbed out.
 * CPU is this process's, less a receiver that only reads and answers. Sizes: EXTRAS_PARSES (3000),
 * EXTRAS_DELIVERIES (400, 25 at once), EXTRAS_ROUNDS (3).
 */
import type { Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { parseJson } from '../../provider/json';
import { interpretResponse } from '../../provider/envelope';
import { operations } from '../../provider/operations';
import { createFileRouteStore, routeKey } from '../../platform/storage/route-store';
import { createCardEntityDelivery } from '../../webhooks/card-route';
import { startWebhookReceiver } from '../../webhooks/receiver';
import { parseEvent } from '../../webhooks/routing';
import type { WebhookEntry, WebhookStore } from '../../webhooks/store';
import { startSandbox, ZERO_DELAYS } from '../sandbox/index';
import { num } from './harness';
import { percentile } from './stats';
import { thinInput } from './thin-integration';
import { parseKeepingIds, thinProvider, derPublic } from './thin-provider';
import { startThinReceiver } from './thin-receiver';

const PARSES = num('EXTRAS_PARSES', 3000);
const DELIVERIES = num('EXTRAS_DELIVERIES', 400);
const ROUNDS = num('EXTRAS_ROUNDS', 3);

interface Answer {
  operation: keyof typeof operations;
  raw: Buffer;
}

interface Webhook {
  category: string;
  signature: string;
  raw: Buffer;
  merchantOrderNo: string;
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const until = async (done: () => boolean) => {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!done()) throw new Error('the sandbox did not get that far within 5 s');
};

/** One onboarding's answers and webhooks, as the sandbox sends them. */
async function record(): Promise<{ answers: Answer[]; webhooks: Webhook[]; platformKey: string }> {
  const webhooks: Webhook[] = [];
  const capture = createServer((request, response) => {
    void readAll(request).then((raw) => {
      const record = JSON.parse(raw.toString('utf8')) as { merchantOrderNo: string };
      webhooks.push({
        category: String(request.headers['x-wsb-category']),
        signature: String(request.headers['x-wsb-signature']),
        raw,
        merchantOrderNo: record.merchantOrderNo,
      });
      response.end('{"success":true,"code":200,"msg":null,"data":null}');
    });
  });
  await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(capture.address() as AddressInfo).port}/webhooks`;
  const sandbox = await startSandbox({ delays: ZERO_DELAYS, webhookUrl });
  const byPath = new Map(Object.values(operations).map((op) => [op.path, op.name]));
  const answers: Answer[] = [];
  const provider = thinProvider({
    baseUrl: sandbox.url,
    apiKey: sandbox.env.CARDFLOW_PROVIDER_API_KEY!,
    merchantPrivateKey: sandbox.env.CARDFLOW_MERCHANT_PRIVATE_KEY!,
    platformPublicKey: sandbox.env.CARDFLOW_PLATFORM_PUBLIC_KEY!,
    onAnswer: (p, raw) => answers.push({ operation: byPath.get(p)!, raw }),
  });
  try {
    const input = thinInput();
    await provider.listCardTypes();
    await provider.getAccountInfo();
    const holder = await provider.createCardholder({
      merchantOrderNo: `TH${input.ref}H`,
      cardTypeId: input.cardTypeId,
      ...input.holder,
    });
    await until(() => webhooks.length === 3);
    await provider.getAccountInfo();
    const merchantOrderNo = `TH${input.ref}C`;
    const card = await provider.createCard({
      merchantOrderNo,
      cardTypeId: input.cardTypeId,
      holderId: holder.holderId,
      amount: input.initialDeposit,
    });
    await provider.listCardTransactions({ merchantOrderNo });
    await provider.getCardInfo({ cardNo: card.cardNo! });
    await until(() => webhooks.length === 6);
    return { answers, webhooks, platformKey: sandbox.env.CARDFLOW_PLATFORM_PUBLIC_KEY! };
  } finally {
    await provider.close();
    await sandbox.stop();
    capture.closeAllConnections();
    capture.close();
  }
}

async function readAll(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** ms of CPU per onboarding of `parse` run over its answers and webhooks. */
function parseCost(parse: () => void): number {
  for (let i = 0; i < 200; i++) parse();
  const before = cpuMs();
  for (let i = 0; i < PARSES; i++) parse();
  return (cpuMs() - before) / PARSES;
}

/** Temporal stubbed: every signal and start answered at once. */
const stubClient = {
  workflow: {
    getHandle: () => ({ signal: async () => undefined }),
    signalWithStart: async () => ({}),
    start: async () => ({}),
  },
} as unknown as Client;

/** A delivery log kept in memory: de-duplicates by request id, writes nothing. */
function memoryStore(): WebhookStore {
  const entries = new Map<string, WebhookEntry>();
  return {
    get: (requestId) => entries.get(requestId),
    append: async (entry) => void entries.set(entry.requestId, entry),
    close: async () => undefined,
  };
}

/** No delivery log: nothing de-duplicated, nothing recorded. */
const noStore: WebhookStore = { get: () => undefined, append: async () => undefined, close: async () => undefined };

interface Target {
  name: string;
  url: string;
  /** Before each onboarding's deliveries (the thin receiver forgets a route once it signalled). */
  prepare?: () => void;
  stop(): Promise<void>;
}

/** ms of CPU per onboarding to deliver its six webhooks to `target`, 25 onboardings at once. */
async function deliveryCost(target: Target, webhooks: Webhook[], onboardings: number): Promise<number> {
  const url = new URL(target.url);
  const pool = new Pool(url.origin, { connections: 25 });
  const one = async () => {
    target.prepare?.();
    for (const w of webhooks) {
      const response = await pool.request({
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-wsb-category': w.category,
          'x-wsb-signature': w.signature,
          'x-wsb-request-id': randomUUID(),
        },
        body: w.raw,
      });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`${target.name} answered ${response.statusCode}`);
    }
  };
  const batch = async (count: number) => {
    for (let done = 0; done < count; done += 25)
      await Promise.all(Array.from({ length: Math.min(25, count - done) }, one));
  };
  await batch(50);
  const before = cpuMs();
  await batch(onboardings);
  const ms = (cpuMs() - before) / onboardings;
  await pool.close();
  return ms;
}

async function receivers(webhooks: Webhook[], platformKey: string): Promise<Target[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cardflow-extras-'));
  const routes = createFileRouteStore({ dir: path.join(dir, 'routes') });
  for (const w of webhooks) await routes.record(routeKey('order', w.merchantOrderNo), `owner-${w.merchantOrderNo}`);
  const cardflow = async (name: string, store?: WebhookStore) => {
    const receiver = await startWebhookReceiver({
      // A key object, as webhooks/main.ts passes it (a string would be parsed per delivery).
      platformPublicKey: derPublic(platformKey),
      client: stubClient,
      routes,
      cardEntities: createCardEntityDelivery(stubClient, { taskQueue: 'extras' }),
      dataDir: path.join(dir, name),
      ...(store ? { store } : {}),
    });
    return { name, url: receiver.url, stop: () => receiver.stop() };
  };
  const thinRoutes = new Map<string, string>();
  const thin = await startThinReceiver({
    platformKey: derPublic(platformKey),
    client: stubClient,
    routes: thinRoutes,
    taskQueue: 'extras',
  });
  const sink = createServer((request, response) => {
    void readAll(request).then(() => response.end('{"success":true,"code":200,"msg":null,"data":null}'));
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  return [
    {
      name: 'sink (reads the body, answers)',
      url: `http://127.0.0.1:${(sink.address() as AddressInfo).port}/webhooks`,
      stop: async () => {
        sink.closeAllConnections();
        sink.close();
      },
    },
    await cardflow('cardflow, delivery log on disk (synced when signalled) and de-duplication'),
    await cardflow('cardflow, de-duplicating log in memory', memoryStore()),
    await cardflow('cardflow, no delivery log', noStore),
    {
      name: 'thin receiver',
      url: thin.url,
      prepare: () => {
        for (const w of webhooks) thinRoutes.set(w.merchantOrderNo, `owner-${w.merchantOrderNo}`);
      },
      stop: async () => {
        await thin.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    },
  ];
}

const median = (xs: number[]) => percentile(xs, 50);
const range = (xs: number[]) =>
  `${median(xs).toFixed(3)} ms (${Math.min(...xs).toFixed(3)}-${Math.max(...xs).toFixed(3)})`;

async function main(): Promise<void> {
  const { answers, webhooks, platformKey } = await record();
  console.log(
    `one onboarding: ${answers.length} provider answers (${answers.map((a) => a.operation).join(', ')}), ` +
      `${webhooks.length} webhooks (${webhooks.map((w) => w.category).join(', ')})`,
  );
  const texts = answers.map((a) => a.raw.toString('utf8'));
  const hookTexts = webhooks.map((w) => w.raw.toString('utf8'));
  const parsers: Array<[string, () => void]> = [
    [
      'thin: JSON.parse, long ids quoted',
      () => {
        for (const t of texts) parseKeepingIds(t);
        for (const t of hookTexts) JSON.parse(t);
      },
    ],
    [
      'lossless JSON (provider/json.ts), no schemas',
      () => {
        for (const t of texts) parseJson(t);
        for (const t of hookTexts) parseJson(t);
      },
    ],
    [
      'cardflow: lossless JSON, envelope and record schemas',
      () => {
        answers.forEach((a) =>
          interpretResponse(operations[a.operation], { status: 200, body: a.raw, signature: 'valid', requestId: 'x' }),
        );
        webhooks.forEach((w, i) => parseEvent(w.category, parseJson(hookTexts[i]!)));
      },
    ],
  ];
  const parseFigures = parsers.map(() => [] as number[]);
  const targets = await receivers(webhooks, platformKey);
  const deliveryFigures = targets.map(() => [] as number[]);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      parsers.forEach(([, parse], i) => parseFigures[i]!.push(parseCost(parse)));
      // Alternate the order, so a neighbour's load lands on each alike.
      const order = round % 2 === 0 ? targets.map((_, i) => i) : targets.map((_, i) => targets.length - 1 - i);
      for (const i of order) deliveryFigures[i]!.push(await deliveryCost(targets[i]!, webhooks, DELIVERIES));
    }
  } finally {
    for (const t of targets) await t.stop();
  }
  console.log(`\nparsing one onboarding's answers and webhooks, CPU per onboarding (median of ${ROUNDS} rounds):`);
  parsers.forEach(([name], i) => console.log(`  ${name}: ${range(parseFigures[i]!)}`));
  console.log(
    `\ndelivering one onboarding's webhooks, CPU of this process per onboarding (sender included; median of ${ROUNDS} rounds):`,
  );
  targets.forEach((t, i) => console.log(`  ${t.name}: ${range(deliveryFigures[i]!)}`));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
