/**
 * A B2C cardholder's identity documents (spec: Cardholders, `idFrontId`, `idBackId`, `idHoldId`:
 * file ids from upload; front, back, face photo). A backend names each one either by the fileId
 * of an upload already made, or by the reference of a file it stored (client `storeFile`,
 * domain/stored-files.ts): the cardholder workflow uploads such a file once, before the holder is
 * submitted, and sends its fileId. Only references and fileIds travel through workflows.
 */
import { z } from 'zod';
import { requiredText } from '../provider/schemas/fields';
import { storedFileRefIssue } from './stored-files';

/** Each document: the provider's fileId field and the field that names a stored file instead. */
export const HOLDER_DOCUMENTS = [
  { fileId: 'idFrontId', ref: 'idFrontRef' },
  { fileId: 'idBackId', ref: 'idBackRef' },
  { fileId: 'idHoldId', ref: 'idHoldRef' },
] as const;

export type DocumentFileIdField = (typeof HOLDER_DOCUMENTS)[number]['fileId'];
export type DocumentRefField = (typeof HOLDER_DOCUMENTS)[number]['ref'];

const storedFileRef = z.string().superRefine((ref, ctx) => {
  const issue = storedFileRefIssue(ref);
  if (issue) ctx.addIssue({ code: 'custom', message: issue });
});

/**
 * The B2C document fields: each by fileId or by stored file ({@link checkDocuments}: one of the
 * two).
 */
export const documentFields = {
  idFrontId: requiredText.optional(),
  idBackId: requiredText.optional(),
  idHoldId: requiredText.optional(),
  idFrontRef: storedFileRef.optional(),
  idBackRef: storedFileRef.optional(),
  idHoldRef: storedFileRef.optional(),
};

type Documents = Partial<Record<DocumentFileIdField | DocumentRefField, string | undefined>>;

/**
 * Each document named once: by its fileId or by a stored file's reference, never both or neither.
 */
export function checkDocuments(value: Documents, ctx: z.RefinementCtx): void {
  for (const { fileId, ref } of HOLDER_DOCUMENTS) {
    if (value[fileId] === undefined && value[ref] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [fileId],
        message: `is required: an uploaded file's fileId, or ${ref}, a stored file's reference (storeFile)`,
      });
    } else if (value[fileId] !== undefined && value[ref] !== undefined) {
      ctx.addIssue({ code: 'custom', path: [ref], message: `give ${fileId} or ${ref}, not both` });
    }
  }
}

/** A document still to upload: its reference, and the fields it is named by and will be sent in. */
export interface DocumentToUpload {
  ref: string;
  refField: DocumentRefField;
  fileIdField: DocumentFileIdField;
}

/**
 * The documents a holder names by stored file (none for B2B, IDV, or a holder named by fileIds).
 */
export function documentsToUpload(holder: { shape: string } & Documents): DocumentToUpload[] {
  if (holder.shape !== 'B2C') return [];
  return HOLDER_DOCUMENTS.flatMap(({ fileId, ref }) => {
    const value = holder[ref];
    return value === undefined ? [] : [{ ref: value, refField: ref, fileIdField: fileId }];
  });
}

/**
 * The holder as the provider takes it: each stored file's reference replaced by the fileId its
 * upload returned (`fileIds`, by reference). Throws when one is missing: a reference must never
 * reach the provider.
 */
export function withUploadedDocuments<H extends { shape: string } & Documents>(
  holder: H,
  fileIds: Readonly<Record<string, string>>,
): H {
  const sent: Documents = { ...holder };
  for (const document of documentsToUpload(holder)) {
    const fileId = fileIds[document.ref];
    if (fileId === undefined) throw new Error(`${document.refField}: file ${document.ref} was not uploaded`);
    delete sent[document.refField];
    sent[document.fileIdField] = fileId;
  }
  return sent as H;
}
