/**
 * The 3DS one-time codes and authorization URLs the tier's sandboxes issued, and the scan that
 * proves no history holds one. Each harness, when it stops, reads what its sandbox issued (every
 * `third_3ds_otp` and `auth_url` record, its `values` opened with the merchant key, as the relay
 * activity opens them) and appends it to the file the global setup named; the global teardown
 * then reads every history the tier left on the dev server, the test-only workflow types included,
 * decodes every payload with the codec keys the tests registered, and fails on any issued value:
 * the relay's promise is that a code reaches the backend and never a history, not even encrypted.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { Payload } from '@temporalio/common';
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { ProviderClient } from '../../../provider/client';
import type { KeyInput } from '../../../provider/keys';
import { decryptSensitive } from '../../../provider/sensitive';
import { createDataConverter } from '../../../platform/codec/data-converter';
import { parseKeyList } from '../../../platform/codec/keys';
import { collectPayloads, foundIn } from '../platform/codec/history-scan';
import { everyExecution, fetchHistory, registeredKeys } from './cross-replay';

/**
 * File the harnesses append the issued 3DS values to (one JSON object per line), set by the global
 * setup.
 */
export const issuedSecretsFileEnv = 'CARDFLOW_TEST_ISSUED_3DS_FILE';

/** One issued 3DS value: its record and kind, and the code or URL in clear. */
export interface IssuedSecret {
  tradeNo: string;
  /** `identity_document`: text carried by a document's bytes (`tradeNo` names the document). */
  kind: 'third_3ds_otp' | 'auth_url' | 'identity_document';
  value: string;
}

const RELAYED_KINDS = ['third_3ds_otp', 'auth_url'] as const;
const PAGE_SIZE = 100;

/**
 * Appends every OTP and authorization URL the sandbox behind `provider` issued to the tier's file.
 */
export async function recordIssuedSecrets(provider: ProviderClient, merchantPrivateKey: KeyInput): Promise<number> {
  const file = process.env[issuedSecretsFileEnv];
  if (!file) return 0;
  const issued: IssuedSecret[] = [];
  for (const kind of RELAYED_KINDS) {
    for (let pageNum = 1; ; pageNum += 1) {
      const page = await provider.listCard3dsRecords({ pageNum, pageSize: PAGE_SIZE, type: kind });
      for (const record of page.records)
        issued.push({ tradeNo: record.tradeNo, kind, value: decryptSensitive(record.values, merchantPrivateKey) });
      if (page.records.length < PAGE_SIZE) break;
    }
  }
  if (issued.length) appendFileSync(file, issued.map((i) => `${JSON.stringify(i)}\n`).join(''));
  return issued.length;
}

/**
 * Registers text that identity documents' bytes carry, so the same scan fails on any history that
 * holds a document's content: workflows carry only references and fileIds.
 */
export function recordDocumentContents(documents: Record<string, string>): void {
  const file = process.env[issuedSecretsFileEnv];
  if (!file) return;
  const lines = Object.entries(documents).map(([name, value]) => ({ tradeNo: name, kind: 'identity_document', value }));
  appendFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

/** What the harnesses recorded. */
export function readIssuedSecrets(file: string | undefined): IssuedSecret[] {
  if (!file || !existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as IssuedSecret);
}

export interface IssuedSecretScan {
  /** Histories searched: none when nothing was issued (nothing to search for). */
  histories: number;
  issued: number;
  /** Payloads no registered key opens (searched only as stored). */
  unreadable: number;
  /** `<workflowId> holds the <kind> of 3DS record <tradeNo>`, one line per find. */
  finds: string[];
}

/**
 * Every history on the server, every run, searched for every issued value: in its payloads decoded
 * with the codec, and in the history as stored (search attributes, failure messages, markers).
 */
export async function scanHistoriesForIssuedSecrets(opts: {
  address: string;
  namespace: string;
  codecKeysFile?: string;
  issuedFile?: string | undefined;
}): Promise<IssuedSecretScan> {
  const issued = readIssuedSecrets(opts.issuedFile);
  const scan: IssuedSecretScan = { histories: 0, issued: issued.length, unreadable: 0, finds: [] };
  if (!issued.length) return scan;
  const keys = registeredKeys(opts.codecKeysFile);
  const codecs = keys ? (createDataConverter(parseKeyList(keys)).payloadCodecs ?? []) : [];
  const decode = async (payload: Payload): Promise<Payload> => {
    let decoded = [payload];
    for (const codec of [...codecs].reverse()) decoded = await codec.decode(decoded);
    return decoded[0]!;
  };
  const values = issued.map((i) => i.value);
  const connection = await Connection.connect({ address: opts.address });
  try {
    for await (const execution of everyExecution(connection, opts.namespace)) {
      const workflowId = execution.execution?.workflowId ?? '';
      const history = await fetchHistory(connection, opts.namespace, workflowId, execution.execution?.runId ?? '');
      scan.histories += 1;
      const texts = [Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1')];
      for (const payload of collectPayloads(history)) {
        try {
          texts.push(Buffer.from((await decode(payload)).data ?? []).toString('utf8'));
        } catch {
          scan.unreadable += 1;
        }
      }
      for (const value of foundIn(texts.join('\n'), values)) {
        const what = issued.find((i) => i.value === value)!;
        const of = what.kind === 'identity_document' ? 'document' : '3DS record';
        scan.finds.push(`${workflowId} holds the ${what.kind} of ${of} ${what.tradeNo}`);
      }
    }
    return scan;
  } finally {
    await connection.close();
  }
}
