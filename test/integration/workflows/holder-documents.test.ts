/**
 * A B2C cardholder onboarded from document bytes on the dev server against the sandbox: the
 * backend stores each document (client storeFile) and names it by reference; the workflow uploads
 * each one once before the holder is submitted. A document the review cannot read is rejected,
 * naming its field, and replaced through the correction Update; a lost upload answer costs one
 * spare upload and no second referenced file. The sandbox's records show exactly one holder and
 * one referenced upload per document; no document's bytes reach the workflow's history.
 */
import { randomUUID } from 'node:crypto';
import { storeFile } from '../../../client';
import {
  cardholderStatusQuery,
  correctCardholderUpdate,
  type CardholderOnboardingInput,
  type CardholderOnboardingResult,
} from '../../../domain/cardholder-onboarding';
import type { B2cCardholder } from '../../../domain/cardholder-data';
import { WorkflowTypes } from '../../../domain/workflows';
import { UNREADABLE_DOCUMENT } from '../../../tools/sandbox/engine/magic';
import { b2cHolderWithoutDocuments } from '../../fixtures/holders';
import { exportHistoryBytes } from '../platform/codec/history-scan';
import { recordDocumentContents } from '../support/issued-secrets';
import { eventually, FAST_WAIT, PHYSICAL_TYPE, startCardHarness } from '../support/card-harness';
import { cardholdersByEmail, customerRef, harnessPerFile } from '../support/harness';

jest.setTimeout(180_000);

const h = harnessPerFile(startCardHarness);

interface UploadedFile {
  fileId: string;
  sha256: string;
  referencedBy: { holderId: string; field: string }[];
}

/** A PNG whose bytes carry `text`, so the test can look for them wherever they must not be. */
function png(text: string): Buffer {
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(text)]);
}

/**
 * Three identity documents stored as a backend stores them; the front one optionally unreadable.
 */
async function storedDocuments(label: string, unreadableFront: boolean) {
  const texts = [
    `${unreadableFront ? UNREADABLE_DOCUMENT : 'front'} passport-front-${label}`,
    `passport-back-${label}`,
    `selfie-${label}`,
  ];
  recordDocumentContents(Object.fromEntries(texts.map((t) => [t, t])));
  const [front, back, hold] = await Promise.all(
    texts.map((text, i) => storeFile({ filename: `doc-${i}.png`, data: png(text) }, { store: h.fileStore })),
  );
  return { texts, refs: { idFrontRef: front!.ref, idBackRef: back!.ref, idHoldRef: hold!.ref } };
}

function holderWith(email: string, refs: { idFrontRef: string; idBackRef: string; idHoldRef: string }): B2cCardholder {
  const unique = randomUUID().replace(/-/g, '').slice(0, 10);
  return b2cHolderWithoutDocuments({ email, idNumber: `P${unique}` }, refs);
}

function start(label: string, holder: B2cCardholder) {
  const input: CardholderOnboardingInput = { cardTypeId: PHYSICAL_TYPE, holder, wait: FAST_WAIT };
  return h.client.workflow.start(WorkflowTypes.cardholderOnboarding, {
    workflowId: `cardholder-${customerRef(label)}`,
    taskQueue: h.taskQueue,
    args: [input],
  });
}

async function uploadedFiles(): Promise<UploadedFile[]> {
  return (await h.helper<{ files: UploadedFile[] }>('uploadedFiles', {})).files;
}

it('onboards from stored documents; an unreadable one is rejected naming its field and replaced', async () => {
  const email = `docs+${randomUUID().slice(0, 8)}@example.com`;
  const docs = await storedDocuments('replaced', true);
  const replacement = await storeFile(
    { filename: 'front-2.png', data: png('clear passport front') },
    { store: h.fileStore },
  );
  const { result, workflowId } = await h.withCardWorker(async () => {
    const handle = await start('docs-replaced', holderWith(email, docs.refs));
    const rejected = await eventually(
      () => handle.query(cardholderStatusQuery),
      (s) => s.stage === 'awaiting_correction',
      'the reject of the unreadable front',
    );
    expect(rejected.rejectReason).toMatch(/^idFrontId: the document in file \S+ cannot be read/);
    const { idFrontRef: _old, ...kept } = docs.refs;
    await handle.executeUpdate(correctCardholderUpdate, {
      args: [{ holder: holderWith(email, { ...kept, idFrontRef: replacement.ref }) }],
    });
    return { result: (await handle.result()) as CardholderOnboardingResult, workflowId: handle.workflowId };
  });
  expect(result).toMatchObject({ status: 'pass_audit', resubmissions: 1 });

  // Exactly one holder, and one upload per document (the replacement is its own document).
  expect(await cardholdersByEmail(h.provider, email)).toHaveLength(1);
  const mine = (await uploadedFiles()).filter((f) => f.referencedBy.some((r) => r.holderId === result.holderId));
  expect(mine.map((f) => f.referencedBy.map((r) => r.field)).sort()).toEqual(
    [['idBackId'], ['idHoldId'], ['idFrontId']].sort(),
  );
  const uploadedForDocs = (await uploadedFiles()).filter((f) =>
    [...Object.values(docs.refs), replacement.ref].some((ref) => ref.startsWith(f.sha256)),
  );
  expect(uploadedForDocs).toHaveLength(4);

  // The history holds references and fileIds, never a document's bytes.
  const history = await exportHistoryBytes(h.client, workflowId);
  const found = [...docs.texts, 'clear passport front'].filter((text) => history.includes(Buffer.from(text)));
  expect(found).toEqual([]);
  expect(history.includes(Buffer.from(docs.refs.idBackRef))).toBe(true);
});

it('a lost upload answer costs one spare upload; each document is referenced once', async () => {
  const email = `docs+${randomUUID().slice(0, 8)}@example.com`;
  const docs = await storedDocuments('lost', false);
  const before = h.sandbox.commits({ operation: 'uploadFile' }).length;
  h.sandbox.setFaults({ reset: true, dropResponseRate: 1, operations: ['uploadFile'], remaining: 1 });
  const result = await h.withCardWorker(async () => {
    const handle = await start('docs-lost', holderWith(email, docs.refs));
    return (await handle.result()) as CardholderOnboardingResult;
  });
  expect(h.sandbox.faults().remaining).toBe(0);
  h.sandbox.setFaults({ reset: true });
  expect(result).toMatchObject({ status: 'pass_audit', resubmissions: 0 });
  expect(await cardholdersByEmail(h.provider, email)).toHaveLength(1);
  expect(h.sandbox.commits({ operation: 'uploadFile' }).length - before).toBe(4);
  const refs = Object.values(docs.refs);
  const uploads = (await uploadedFiles()).filter((f) => refs.some((ref) => ref.startsWith(f.sha256)));
  expect(uploads).toHaveLength(4);
  const referenced = uploads.filter((f) => f.referencedBy.length > 0);
  expect(referenced.map((f) => f.referencedBy)).toEqual(
    expect.arrayContaining([
      [{ holderId: result.holderId, field: 'idFrontId' }],
      [{ holderId: result.holderId, field: 'idBackId' }],
      [{ holderId: result.holderId, field: 'idHoldId' }],
    ]),
  );
  expect(referenced).toHaveLength(3);
});
