/**
 * The body of the one multipart operation, the file upload (spec, File upload: parts `category`
 * and `file`), read by the Fetch API's own `Request.formData()` (undici, the implementation
 * behind Node's `fetch`) from the complete body bytes (already capped). Binary file content is
 * kept byte for byte.
 */
import { Request } from 'undici';

export interface MultipartPart {
  name: string;
  /** Present on a file part. */
  filename?: string;
  /** A file part's type: as sent, else `text/plain` (the Fetch standard's default). */
  contentType?: string;
  data: Buffer;
}

export class MultipartError extends Error {
  override readonly name = 'MultipartError';
}

/** Whether `contentType` is `multipart/form-data` (the form's only accepted encoding here). */
export function isMultipartFormData(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'multipart/form-data';
}

/** The body's parts in order; a {@link MultipartError} saying what is malformed otherwise. */
export async function parseMultipart(body: Buffer, contentType: string): Promise<MultipartPart[]> {
  let form: Awaited<ReturnType<Request['formData']>>;
  try {
    form = await new Request('http://sandbox.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    }).formData();
  } catch (error) {
    // undici says "Failed to parse body as FormData." and puts what it met in the cause.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
    throw new MultipartError(cause ?? (error instanceof Error ? error.message : String(error)));
  }
  const parts: MultipartPart[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') parts.push({ name, data: Buffer.from(value, 'utf8') });
    else
      parts.push({
        name,
        filename: value.name,
        ...(value.type ? { contentType: value.type } : {}),
        data: Buffer.from(await value.arrayBuffer()),
      });
  }
  return parts;
}
