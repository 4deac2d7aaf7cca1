/**
 * File upload (spec, "File upload": jpg, png or pdf, at most 2M, category card). The shell
 * parses the multipart body; the engine checks the file again by the same rule as the provider
 * client (`UploadFileSchema`: extension, content type and magic bytes agree, not empty, at most
 * 2 MiB), since the engine may be driven directly, and keeps its metadata (never its bytes) under a
 * new fileId for cardholder and work-order references.
 */
import { createHash } from 'node:crypto';
import { UPLOAD_CATEGORY } from '../../../provider/rules';
import { UploadFileSchema } from '../../../provider/schemas/file';
import type { UploadedFile } from '../contract';
import { paramError, type Ctx } from './context';
import { isUnreadableDocument } from './magic';
import { optText, type Req } from './request';

export function uploadFile(ctx: Ctx, req: Req, given?: UploadedFile): unknown {
  // The shell passes the parsed part separately; the request schema's output also carries it as
  // `file`.
  const file = given ?? (req.file as UploadedFile | undefined);
  const category = optText(req, 'category');
  if (category !== UPLOAD_CATEGORY) throw paramError('category', `must be "${UPLOAD_CATEGORY}"`);
  if (!file) throw paramError('file', 'is required (a jpg, png or pdf part)');
  const checked = UploadFileSchema.safeParse(file);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw paramError(['file', ...issue.path.map(String)].join('.'), issue.message);
  }
  const fileId = `F${ctx.ids.longId()}`;
  ctx.state.files.set(fileId, {
    fileId,
    filename: file.filename,
    contentType: file.contentType,
    size: file.data.byteLength,
    sha256: createHash('sha256').update(file.data).digest('hex'),
    uploadedAt: ctx.now(),
    unreadable: isUnreadableDocument(file.data),
  });
  return { fileId };
}

/** uploadedFiles helper: every upload's metadata, and the cardholders whose fields name it. */
export function listUploadedFiles(ctx: Ctx): unknown {
  return [...ctx.state.files.values()].map((f) => ({
    fileId: f.fileId,
    filename: f.filename,
    contentType: f.contentType,
    size: f.size,
    sha256: f.sha256,
    uploadedAt: f.uploadedAt,
    referencedBy: [...ctx.state.holders.values()].flatMap((h) =>
      Object.entries(h.fields)
        .filter(([, value]) => value === f.fileId)
        .map(([field]) => ({ holderId: h.holderId, field })),
    ),
  }));
}
