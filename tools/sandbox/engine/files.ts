/**
 * File upload (spec, "File upload": jpg, png or pdf, at most 2M, category card). The shell
 * parses the multipart body; the engine checks the file again (the engine may be driven
 * directly) and stores its metadata under a new fileId for cardholder and work-order references.
 */
import { UPLOAD_CATEGORY, UPLOAD_KINDS, UPLOAD_MAX_BYTES } from '../../../provider/rules';
import type { UploadedFile } from '../contract';
import { paramError, type Ctx } from './context';
import { optText, type Req } from './request';

export function uploadFile(ctx: Ctx, req: Req, given?: UploadedFile): unknown {
  // The shell passes the parsed part separately; the request schema's output also carries it as `file`.
  const file = given ?? (req.file as UploadedFile | undefined);
  const category = optText(req, 'category');
  if (category !== UPLOAD_CATEGORY) throw paramError('category', `must be "${UPLOAD_CATEGORY}"`);
  if (!file) throw paramError('file', 'is required (a jpg, png or pdf part)');
  const ext = file.filename.toLowerCase().split('.').pop() ?? '';
  const kind = UPLOAD_KINDS.find((k) => (k.extensions as readonly string[]).includes(ext));
  if (!kind) throw paramError('file', `must be a jpg, png or pdf file; got "${file.filename}"`);
  if (file.data.byteLength === 0) throw paramError('file', 'must not be empty');
  if (file.data.byteLength > UPLOAD_MAX_BYTES)
    throw paramError('file', `must be at most ${UPLOAD_MAX_BYTES} bytes (2M)`);
  const fileId = `F${ctx.ids.longId()}`;
  ctx.state.files.set(fileId, {
    fileId,
    filename: file.filename,
    contentType: file.contentType,
    size: file.data.byteLength,
  });
  return { fileId };
}
