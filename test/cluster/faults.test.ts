/**
 * The production topology under faults: while onboardings keep starting and running, one worker
 * process is SIGKILLed, one history host that holds shards is SIGKILLed (they move to the other)
 * and started again, one webhook receiver is SIGKILLed (haproxy sends its share to the other), and
 * PostgreSQL restarts once, all with the sandbox's faults on (5xx, answers dropped after commit,
 * webhooks dropped, duplicated and reordered). Every onboarding completes, nothing is created twice
 * at the provider, and the wallet is charged exactly what the onboardings cost.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type WorkflowHandle, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { Client as PgClient } from 'pg';
import { add, cmp, sub } from '../../provider/money';
import type { OnboardingInput, OnboardingResult } from '../../domain/customer-onboarding';
import { onboardingStartAttributes } from '../../domain/start-attributes';
import { onboardingWorkflowId } from '../../domain/workflow-ids';
import { WorkflowTypes } from '../../domain/workflows';
import { CARD_TYPES as SANDBOX_CARD_TYPES } from '../../tools/sandbox/data/card-types';
import { walletAccount } from '../integration/support/card-harness';
import { CARD_TYPES, FAST_WAIT, cardholdersByEmail, customerRef } from '../integration/support/harness';
import { b2bHolder, uniqueEmail } from '../integration/support/holders';
import { HISTORY_HOSTS } from '../../tools/scripts/cluster/temporal-cluster';
import { clusterSettings, control, historyHostAddresses } from './support/control';
import { type ClusterWorld, startClusterWorld, until } from './support/world';

const FAULTS = {
  errorRate: 0.1,
  dropResponseRate: 0.1,
  webhookDropRate: 0.2,
  webhookDuplicateRate: 0.3,
  webhookReorderRate: 0.3,
};

let w: ClusterWorld;
beforeAll(async () => {
  w = await startClusterWorld({ label: 'faults' });
});
afterAll(async () => w?.stop());

const cardPrice = (cardTypeId: string) => SANDBOX_CARD_TYPES.find((t) => t.cardTypeId === cardTypeId)!.cardPrice;

/**
 * Starts an onboarding as a backend does, retrying while the cluster cannot take the start
 * (PostgreSQL restarting). The id is the business id, so a start that went through although its
 * answer was lost is found, never made twice.
 */
async function startOnce(input: OnboardingInput): Promise<WorkflowHandle> {
  const workflowId = onboardingWorkflowId(input.customerRef);
  for (let attempt = 1; ; attempt++) {
    try {
      return await w.client.workflow.start(WorkflowTypes.customerOnboarding, {
        workflowId,
        taskQueue: w.taskQueue,
        args: [input],
        typedSearchAttributes: onboardingStartAttributes(input.customerRef),
      });
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) return w.client.workflow.getHandle(workflowId);
      if (attempt >= 30) throw error;
      await sleep(1_000);
    }
  }
}

/**
 * A history shard as the Temporal database records it: its fencing token and the host holding it.
 */
interface Shard {
  id: number;
  range: string;
  /** The holder's gRPC address (`host:port`), as the membership ring knows it. */
  owner: string | undefined;
}

/**
 * The owner field of a shard's record (ShardInfo, protobuf: field 3, a string such as
 * `127.0.0.1:7234-2-<uuid>`), reduced to the host's address.
 */
function shardOwner(data: Buffer): string | undefined {
  let at = 0;
  const varint = () => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = data[at++]!;
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < data.length) {
    const key = Number(varint());
    const [field, wire] = [key >> 3, key & 7];
    if (wire === 0) varint();
    else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else if (wire === 2) {
      const length = Number(varint());
      if (field === 3) return /^(.+?:\d+)/.exec(data.subarray(at, at + length).toString('utf8'))?.[1];
      at += length;
    } else return undefined;
  }
  return undefined;
}

/** Every history shard of the tier's cluster, from its Temporal database. */
async function shards(): Promise<Shard[]> {
  const client = new PgClient({ connectionString: clusterSettings().temporalDatabaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ shard_id: number; range_id: string; data: Buffer }>(
      'SELECT shard_id, range_id, data FROM shards ORDER BY shard_id',
    );
    return rows.map((r) => ({ id: r.shard_id, range: r.range_id, owner: shardOwner(r.data) }));
  } finally {
    await client.end();
  }
}

interface Started {
  input: OnboardingInput;
  handle: WorkflowHandle;
  email?: string;
}

it('every onboarding completes once through a worker, a history host, a receiver and PostgreSQL going down', async () => {
  const walletBefore = (await walletAccount(w.provider)).availableBalance;
  w.sandbox.setFaults(FAULTS);
  const started: Started[] = [];
  let producing = true;
  // Onboardings keep starting through every fault below, alternately B2B with a holder and a
  // deposit at creation, and without a holder with a deposit after creation.
  const producer = (async () => {
    for (let i = 0; producing; i++) {
      const email = i % 2 === 0 ? uniqueEmail('cluster.faults') : undefined;
      const input: OnboardingInput = email
        ? {
            customerRef: customerRef(`faults-b2b-${i}`),
            cardTypeId: CARD_TYPES.b2bWithDeposit,
            holder: b2bHolder(email),
            initialDeposit: '40',
            wait: FAST_WAIT,
          }
        : {
            customerRef: customerRef(`faults-plain-${i}`),
            cardTypeId: CARD_TYPES.noHolderNoDeposit,
            initialDeposit: '25',
            wait: FAST_WAIT,
          };
      started.push({ input, handle: await startOnce(input), ...(email ? { email } : {}) });
      await sleep(1_000);
    }
  })();

  await sleep(4_000);
  const [firstWorker] = w.services.workers;
  await firstWorker!.stop('SIGKILL');
  await sleep(4_000);
  // The host to kill holds shards: the tier runs four, and the ring may give them all to one host.
  const historyHosts = historyHostAddresses();
  const before = await shards();
  const victim = HISTORY_HOSTS.find((host) => before.some((shard) => shard.owner === historyHosts[host]));
  if (!victim) throw new Error(`no history host holds a shard: ${JSON.stringify(before)}`);
  const survivor = HISTORY_HOSTS.find((host) => host !== victim)!;
  const held = before.filter((shard) => shard.owner === historyHosts[victim]);
  await control(`/kill/${victim}`);
  const killedAt = Date.now();
  try {
    // The surviving host takes the dead one's shards, each under a new range id (the owner's
    // fencing token), so the dead host could not write to them any more.
    const after = await until(
      shards,
      (now) => held.every((old) => now.find((shard) => shard.id === old.id)?.owner === historyHosts[survivor]),
      { timeoutMs: 90_000 },
    );
    for (const old of held)
      expect(BigInt(after.find((shard) => shard.id === old.id)!.range)).toBeGreaterThan(BigInt(old.range));
    process.stdout.write(
      `faults: ${victim} killed holding ${held.length} of ${before.length} shards; ${survivor} held them ${Date.now() - killedAt} ms later\n`,
    );
    await sleep(3_000);
  } catch (error) {
    // The test has failed: its producer starts no more onboardings.
    producing = false;
    throw error;
  } finally {
    // The tier's later files share this cluster: the host comes back whatever happened meanwhile.
    await control(`/start/${victim}`);
  }
  await sleep(3_000);
  const [firstReceiver] = w.services.receivers;
  await firstReceiver!.stop('SIGKILL');
  await sleep(3_000);
  await control('/restart/postgresql');
  // The killed worker's replacement, as an orchestrator would start one.
  await w.services.addWorker();
  await sleep(3_000);
  producing = false;
  await producer;

  expect(started.length).toBeGreaterThanOrEqual(15);
  // The faults happened: processes died by SIGKILL, the provider dropped answers it had committed,
  // and webhooks were dropped, duplicated and reordered on their way to haproxy.
  expect((await firstWorker!.exited).signal).toBe('SIGKILL');
  expect((await firstReceiver!.exited).signal).toBe('SIGKILL');
  expect(w.sandbox.commits().some((c) => c.dropped)).toBe(true);
  const deliveryFaults = new Set(w.sandbox.deliveries.log().flatMap((d) => d.faults));
  for (const fault of ['drop', 'duplicate', 'reorder']) expect(deliveryFaults).toContain(fault);
  const results = await Promise.all(started.map((s) => s.handle.result() as Promise<OnboardingResult>));
  w.sandbox.setFaults({ reset: true });

  // One card per onboarding, created once; one holder per B2B onboarding.
  const cards = results.map((r) => r.card.cardNo);
  expect(new Set(cards).size).toBe(started.length);
  const creates = w.sandbox.commits({ operation: 'createCard' });
  for (const cardNo of cards) expect(creates.filter((c) => c.refs.cardNo === cardNo)).toHaveLength(1);
  expect(creates).toHaveLength(started.length);
  for (const s of started.filter((x) => x.email)) {
    expect(await cardholdersByEmail(w.provider, s.email!)).toHaveLength(1);
  }
  expect(w.sandbox.commits({ operation: 'createCardholder' })).toHaveLength(started.filter((x) => x.email).length);
  // Deposits after creation: one per holderless onboarding.
  const deposits = w.sandbox.commits({ operation: 'depositCard' });
  for (const [i, s] of started.entries()) {
    if (!s.email) expect(deposits.filter((c) => c.refs.cardNo === results[i]!.card.cardNo)).toHaveLength(1);
  }
  expect(deposits).toHaveLength(started.filter((x) => !x.email).length);

  // The wallet paid exactly each card's price, deposit and fee, to the cent.
  let expected = '0';
  for (const [i, s] of started.entries()) {
    const r = results[i]!;
    const paid = s.email
      ? add(r.card.initialDeposit.amount, r.card.initialDeposit.fee)
      : add(r.deposit!.amount, r.deposit!.fee);
    expected = add(expected, cardPrice(s.input.cardTypeId), paid);
  }
  const charged = sub(walletBefore, (await walletAccount(w.provider)).availableBalance);
  expect(cmp(charged, expected)).toBe(0);
});
