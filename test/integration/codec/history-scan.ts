/**
 * Helpers of the encryption proof: export a workflow's history as the Temporal API returns it,
 * and find / decode every payload in it.
 */
import type { Client } from '@temporalio/client';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

/** The history of `workflowId` as protobuf bytes: what an export, a backup or a database row holds. */
export async function exportHistoryBytes(client: Client, workflowId: string): Promise<Buffer> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return Buffer.from(temporal.api.history.v1.History.encode(history).finish());
}

/**
 * Every Payload inside a decoded protobuf message (inputs, results, signals, failures' encoded
 * attributes, memos, headers), except search attributes: the server indexes those, so they never
 * pass through a codec and carry references only (domain/search-attributes.ts).
 */
export function collectPayloads(message: unknown, out: Payload[] = []): Payload[] {
  if (message === null || typeof message !== 'object' || ArrayBuffer.isView(message)) return out;
  if (Array.isArray(message)) {
    for (const item of message) collectPayloads(item, out);
    return out;
  }
  const record = message as Record<string, unknown>;
  if (ArrayBuffer.isView(record.data) && record.metadata !== null && typeof record.metadata === 'object') {
    out.push(record);
    return out;
  }
  for (const [key, value] of Object.entries(record)) if (key !== 'searchAttributes') collectPayloads(value, out);
  return out;
}

/** Decodes every payload of a history through `codec`; returns the decoded payloads' data as one text. */
export async function decodedHistoryText(historyBytes: Buffer, codec: PayloadCodec): Promise<{ text: string; encrypted: number; total: number }> {
  const history = temporal.api.history.v1.History.decode(historyBytes);
  const payloads = collectPayloads(history);
  const encrypted = payloads.filter((p) => Buffer.from(p.metadata?.encoding ?? []).toString() === 'binary/encrypted').length;
  const decoded = await codec.decode(payloads);
  return { text: decoded.map((p) => Buffer.from(p.data ?? []).toString('utf8')).join('\n'), encrypted, total: payloads.length };
}
