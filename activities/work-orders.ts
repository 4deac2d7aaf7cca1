/**
 * Supporting files and work orders (spec: File upload; Work orders). A file reference names a file
 * in the shared file store (platform/storage/file-store.ts, `ActivityDeps.fileStore`), so the
 * workflow history holds references and fileIds, never bytes. Work orders are idempotent by
 * merchantOrderNo (looked up in the work order list after an ambiguous outcome); their decision is
 * polled (no webhook in the spec).
 */
import { basename } from 'node:path';
import { activityInfo, cancellationSignal } from '@temporalio/activity';
import { UPLOAD_CATEGORY } from '../provider/rules';
import { FailureTypes } from '../domain/failure-types';
import { workOrderStateOf, type WorkOrderState } from '../domain/provider-records';
import type { ActivityDeps } from './deps';
import { convertingFailures } from './failures';
import { nonRetryable } from '../domain/failures';
import { callIdempotent } from './idempotent';
import { awaitFinalByOrderNo } from './long-poll';

export type { WorkOrderState } from '../domain/provider-records';

export function createWorkOrderActivities(deps: ActivityDeps) {
  const { provider } = deps;

  async function findWorkOrder(merchantOrderNo: string): Promise<WorkOrderState | undefined> {
    const page = await provider.listWorkOrders({ merchantOrderNo, pageSize: 10 }, { signal: cancellationSignal() });
    const found = page.records.find((r) => r.merchantOrderNo === merchantOrderNo);
    return found ? workOrderStateOf(found) : undefined;
  }

  return convertingFailures({
    /**
     * Uploads one stored supporting file (platform/storage/file-store.ts) and returns its fileId.
     * The upload takes no key and the provider has no lookup, so the fileId is recorded in the
     * store per workflow and reference: a later attempt, or a later run of the same workflow,
     * reuses it.
     */
    async uploadStoredFile(input: { ref: string; contentType?: string }): Promise<{ fileId: string }> {
      const store = deps.fileStore;
      if (!store)
        throw nonRetryable(FailureTypes.invalidInput, 'the worker has no file store (ActivityDeps.fileStore)');
      // Per workflow: its attempts and its later runs (same id) reuse what it uploaded.
      const scope = activityInfo().workflowExecution?.workflowId ?? 'standalone';
      const earlier = await store.uploadedFileId(scope, input.ref);
      if (earlier) return { fileId: earlier };
      let file: Awaited<ReturnType<typeof store.get>>;
      try {
        file = await store.get(input.ref);
      } catch (error) {
        throw nonRetryable(FailureTypes.invalidInput, error instanceof Error ? error.message : String(error));
      }
      if (!file) throw nonRetryable(FailureTypes.invalidInput, `file ${input.ref} is not in the file store`);
      const uploaded = await provider.uploadFile(
        {
          category: UPLOAD_CATEGORY,
          file: {
            filename: basename(input.ref),
            contentType: input.contentType ?? file.contentType,
            data: file.data,
          },
        },
        { signal: cancellationSignal() },
      );
      await store.recordUpload(scope, input.ref, uploaded.fileId);
      return { fileId: uploaded.fileId };
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
        routes: deps.routes,
        merchantOrderNo,
        lookup: () => findWorkOrder(merchantOrderNo),
        send: async () =>
          workOrderStateOf(
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
    awaitWorkOrder: awaitFinalByOrderNo({
      what: 'work order',
      find: findWorkOrder,
      status: (order) => order.tradeStatus,
      reprobes: deps.reprobes,
    }),
  });
}
