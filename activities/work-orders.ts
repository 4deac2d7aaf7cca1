/**
 * Supporting files and work orders (spec: File upload; Work orders). A file reference is a name
 * in the worker's file store (`ActivityDeps.fileStoreDir`), so the workflow history holds names
 * and fileIds, never bytes. Work orders are idempotent by merchantOrderNo (looked up in the work
 * order list after an ambiguous outcome); their decision is polled (no webhook in the spec).
 */
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { cancellationSignal } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { UPLOAD_CATEGORY, UPLOAD_KINDS } from '../api/rules';
import type { WorkOrder } from '../api/schemas/work-order';
import { FailureTypes } from '../domain/failure-types';
import type { ActivityDeps } from './deps';
import { toActivityFailure } from './failures';
import { callIdempotent } from './idempotent';
import { longPoll, type PollSettings } from './long-poll';

/** A work order reduced to what the workflows use. */
export interface WorkOrderState {
  merchantOrderNo: string;
  orderNo: string;
  tradeStatus: 'wait_process' | 'processing' | 'success' | 'fail';
  description?: string;
}

function stateOf(order: WorkOrder): WorkOrderState {
  const description = order.description ?? order.remark ?? undefined;
  return {
    merchantOrderNo: order.merchantOrderNo,
    orderNo: order.orderNo,
    tradeStatus: order.tradeStatus,
    ...(description ? { description } : {}),
  };
}

const FINAL: readonly string[] = ['success', 'fail'];

export function createWorkOrderActivities(deps: ActivityDeps) {
  const { provider } = deps;

  async function findWorkOrder(merchantOrderNo: string): Promise<WorkOrderState | undefined> {
    const page = await provider.listWorkOrders({ merchantOrderNo, pageSize: 10 }, { signal: cancellationSignal() });
    const found = page.records.find((r) => r.merchantOrderNo === merchantOrderNo);
    return found ? stateOf(found) : undefined;
  }

  return {
    /** Uploads one file of the file store; returns its fileId. A repeat uploads again (harmless: nothing refers to the spare id). */
    async uploadStoredFile(input: { ref: string; contentType?: string }): Promise<{ fileId: string }> {
      try {
        if (!deps.fileStoreDir)
          throw ApplicationFailure.nonRetryable(
            'the worker has no file store (ActivityDeps.fileStoreDir)',
            FailureTypes.invalidInput,
          );
        // basename: a reference never leaves the store directory.
        const name = basename(input.ref);
        if (name !== input.ref)
          throw ApplicationFailure.nonRetryable(
            `file ${input.ref}: must be a plain file name`,
            FailureTypes.invalidInput,
          );
        const ext = name.toLowerCase().split('.').pop() ?? '';
        const kind = UPLOAD_KINDS.find((k) => (k.extensions as readonly string[]).includes(ext));
        let data: Buffer;
        try {
          data = await readFile(join(deps.fileStoreDir, name));
        } catch {
          throw ApplicationFailure.nonRetryable(`file ${name} is not in the file store`, FailureTypes.invalidInput);
        }
        const uploaded = await provider.uploadFile(
          {
            category: UPLOAD_CATEGORY,
            file: {
              filename: name,
              contentType: input.contentType ?? kind?.contentType ?? 'application/octet-stream',
              data,
            },
          },
          { signal: cancellationSignal() },
        );
        return { fileId: uploaded.fileId };
      } catch (error) {
        throw toActivityFailure(error);
      }
    },

    /** Submits a work order; an earlier attempt's order is returned instead of submitting twice. */
    async submitWorkOrder(input: {
      merchantOrderNo: string;
      title: string;
      target: string;
      content?: string;
      files: string[];
      tradeType: 'CARD_ACTIVE' | 'OTHER';
    }): Promise<WorkOrderState> {
      const { merchantOrderNo } = input;
      const { value } = await callIdempotent<WorkOrderState>({
        merchantOrderNo,
        lookup: () => findWorkOrder(merchantOrderNo),
        send: async () =>
          stateOf(
            await provider.submitWorkOrder(
              {
                merchantOrderNo,
                title: input.title,
                target: input.target,
                tradeType: input.tradeType,
                ...(input.content === undefined ? {} : { content: input.content }),
                ...(input.files.length ? { files: input.files } : {}),
              },
              { signal: cancellationSignal() },
            ),
          ),
      });
      return value;
    },

    /** Polls the work order until it succeeds or fails. */
    async awaitWorkOrder(input: { merchantOrderNo: string; poll: PollSettings }): Promise<WorkOrderState> {
      return longPoll<WorkOrderState | undefined>({
        poll: input.poll,
        what: `work order ${input.merchantOrderNo}`,
        probe: () => findWorkOrder(input.merchantOrderNo),
        done: (order) => order !== undefined && FINAL.includes(order.tradeStatus),
        describe: (order) => order?.tradeStatus ?? 'not found',
      }) as Promise<WorkOrderState>;
    },
  };
}
