/**
 * Helpers of the encryption proof: export a workflow's history as the Temporal API returns it,
 * and find / decode every payload in it.
 */
import type { Client } from '@temporalio/client';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

/**
 * The history of `workflowId` as protobuf bytes: what an export, a backup or a database row holds.
 */
export async function exportHistoryBytes(client: Client, workflowId: string): Promise<Buffer> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return Buffer.from(temporal.api.history.v1.History.encode(history).finish());
}

/**
 * The marker the SDK records for each `patched()` call. Its one payload (the patch id and whether
 * it is deprecated) is written by the SDK's core below the data converter, so it never passes
 * through a codec; it holds a name from our code and nothing of a customer's.
 */
const PATCH_MARKER = 'core_patch';

/**
 * The header a traced caller's W3C trace context travels in (OpenTelemetry's Temporal
 * interceptors): the interceptors write it below the data converter, so it never passes through a
 * codec; it holds trace and span ids and the sampled flag, nothing of a customer's.
 */
const TRACE_HEADER = '_tracer-data';

/**
 * An activity cancelled before any worker started it: the server itself records its cancellation,
 * with the details `"ACTIVITY_ID_NOT_STARTED"` (json/plain), below any codec and holding nothing
 * of a customer's. A run reaches it when a wait ends (a webhook arrives) before its probe started.
 */
function cancelledBeforeStart(key: string, value: unknown): boolean {
  if (key !== 'activityTaskCanceledEventAttributes' || value === null || typeof value !== 'object') return false;
  return Number((value as { startedEventId?: unknown }).startedEventId ?? 0) === 0;
}

/**
 * Every Payload inside a decoded protobuf message (inputs, results, signals, failures' encoded
 * attributes, memos, headers), except search attributes: the server indexes those, so they never
 * pass through a codec and carry references only (domain/search-attributes.ts); except the
 * details of patch markers (see PATCH_MARKER), trace contexts (see TRACE_HEADER) and the server's
 * record of an activity cancelled before it started (see cancelledBeforeStart).
 */
export function collectPayloads(message: unknown, out: Payload[] = []): Payload[] {
  if (message === null || typeof message !== 'object' || ArrayBuffer.isView(message)) return out;
  if (Array.isArray(message)) {
    for (const item of message) collectPayloads(item, out);
    return out;
  }
  const record = message as Record<string, unknown>;
  if (record.markerName === PATCH_MARKER) return out;
  if (ArrayBuffer.isView(record.data) && record.metadata !== null && typeof record.metadata === 'object') {
    out.push(record);
    return out;
  }
  for (const [key, value] of Object.entries(record))
    if (key !== 'searchAttributes' && key !== TRACE_HEADER && !cancelledBeforeStart(key, value))
      collectPayloads(value, out);
  return out;
}

/**
 * Decodes every payload of a history through `codec`; returns the decoded payloads' data as one
 * text.
 */
export async function decodedHistoryText(
  historyBytes: Buffer,
  codec: PayloadCodec,
): Promise<{ text: string; encrypted: number; total: number }> {
  const history = temporal.api.history.v1.History.decode(historyBytes);
  const payloads = collectPayloads(history);
  const encrypted = payloads.filter(
    (p) => Buffer.from(p.metadata?.encoding ?? []).toString() === 'binary/encrypted',
  ).length;
  const decoded = await codec.decode(payloads);
  return {
    text: decoded.map((p) => Buffer.from(p.data ?? []).toString('utf8')).join('\n'),
    encrypted,
    total: payloads.length,
  };
}

/**
 * The values of `values` that occur in `text`, so a failed expectation names what leaked. A value
 * of digits only (PIN, activation code, card number, mobile) counts only as a whole number, not
 * as a run inside a longer one: a 6-digit PIN turns up by chance inside the 19-digit ids.
 */
export function foundIn(text: string, values: readonly string[]): string[] {
  return values.filter((value) =>
    /^\d+$/.test(value) ? new RegExp(`(?<!\\d)${value}(?!\\d)`).test(text) : text.includes(value),
  );
}

/**
 * Whether `text` holds the CVV as a CVV: the JSON field `"cvv":"<cvv>"`, or the three digits
 * within a few non-digit characters of the expiry (as in `{"cvv":"123","expireDate":"11/29"}`).
 * A bare three-digit string occurs by chance in any history, so it proves nothing.
 */
export function holdsCvv(text: string, cvv: string, expiry: string): boolean {
  const exp = expiry.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const near = new RegExp(`(?<!\\d)${cvv}\\D{1,24}${exp}|${exp}\\D{1,24}${cvv}(?!\\d)`);
  return text.includes(`"cvv":"${cvv}"`) || near.test(text);
}

/** Every workflow that ran on `taskQueue`: an onboarding and its children, found by task queue. */
export async function workflowsOnTaskQueue(client: Client, taskQueue: string): Promise<string[]> {
  const workflowIds: string[] = [];
  for await (const execution of client.workflow.list({ query: `TaskQueue = '${taskQueue}'` }))
    workflowIds.push(execution.workflowId);
  return workflowIds;
}
