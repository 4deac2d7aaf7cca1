/** File upload (spec: File upload): identity documents as jpg, png or pdf, at most 2 MiB. */
import { z } from 'zod';
import { UPLOAD_CATEGORY, UPLOAD_KINDS, UPLOAD_MAX_BYTES } from '../rules';
import { requiredText } from './fields';

export const UploadedFileSchema = z.object({ fileId: z.string() });

export type UploadKind = (typeof UPLOAD_KINDS)[number]['kind'];

function kindByExtension(filename: string): UploadKind | undefined {
  const ext = filename.toLowerCase().split('.').pop() ?? '';
  return UPLOAD_KINDS.find((k) => (k.extensions as readonly string[]).includes(ext))?.kind;
}

function kindByContentType(contentType: string): UploadKind | undefined {
  const base = contentType.split(';')[0]?.trim().toLowerCase();
  return UPLOAD_KINDS.find((k) => k.contentType === base)?.kind;
}

/** The kind whose magic bytes open the data, if any. */
export function sniffUploadKind(data: Uint8Array): UploadKind | undefined {
  return UPLOAD_KINDS.find((k) => k.magic.every((b, i) => data[i] === b))?.kind;
}

const allowed = UPLOAD_KINDS.map((k) => k.kind).join(', ');

/**
 * The file part of an upload: its extension, content type and magic bytes must all name the same
 * accepted kind (a renamed executable is refused), it must not be empty and it must fit 2 MiB.
 * The provider client checks it before sending, and a backend's file store before keeping a file.
 */
export const UploadFileSchema = z
  .object({
    filename: requiredText,
    contentType: requiredText,
    /** Any Uint8Array (a Node Buffer too), whatever buffer backs it. */
    data: z.custom<Uint8Array>((v) => v instanceof Uint8Array, { message: 'must be the file bytes (Uint8Array)' }),
  })
  .superRefine((file, ctx) => {
    const byExt = kindByExtension(file.filename);
    if (!byExt) ctx.addIssue({ code: 'custom', path: ['filename'], message: `extension must be one of ${allowed}` });
    const byType = kindByContentType(file.contentType);
    if (!byType) {
      ctx.addIssue({
        code: 'custom',
        path: ['contentType'],
        message: `content type must be one of ${UPLOAD_KINDS.map((k) => k.contentType).join(', ')}`,
      });
    }
    const byMagic = sniffUploadKind(file.data);
    if (!byMagic) ctx.addIssue({ code: 'custom', path: ['data'], message: `content is not a ${allowed} file` });
    if (byExt && byType && byMagic && !(byExt === byType && byType === byMagic)) {
      ctx.addIssue({
        code: 'custom',
        path: ['data'],
        message: `extension (${byExt}), content type (${byType}) and content (${byMagic}) must agree`,
      });
    }
    if (file.data.byteLength === 0) ctx.addIssue({ code: 'custom', path: ['data'], message: 'file must not be empty' });
    if (file.data.byteLength > UPLOAD_MAX_BYTES) {
      ctx.addIssue({
        code: 'custom',
        path: ['data'],
        message: `size must be at most ${UPLOAD_MAX_BYTES} bytes (2 MiB)`,
      });
    }
  });

/** Multipart upload: `category` is `card`; the file as {@link UploadFileSchema} says. */
export const FileUploadRequestSchema = z.object({
  category: z.literal(UPLOAD_CATEGORY, { error: `must be "${UPLOAD_CATEGORY}"` }),
  file: UploadFileSchema,
});
