/**
 * A small multipart/form-data parser for the one multipart operation, the file upload
 * (spec, File upload: parts `category` and `file`). Works on the complete body bytes
 * (already capped); binary file content is kept byte for byte.
 */

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MultipartError';
  }
}

/** The boundary of a `multipart/form-data; boundary=...` content type, or undefined. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const [type, ...params] = contentType.split(';');
  if (type?.trim().toLowerCase() !== 'multipart/form-data') return undefined;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== 'boundary') continue;
    let value = param.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    // RFC 2046: 1 to 70 characters.
    return value.length > 0 && value.length <= 70 ? value : undefined;
  }
  return undefined;
}

/** Parameters of a header value such as `form-data; name="file"; filename="a.png"`. */
function headerParams(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /;\s*([A-Za-z0-9_*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const m of value.matchAll(re)) {
    const key = m[1]!.toLowerCase();
    out[key] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '').trim();
  }
  return out;
}

function parsePart(raw: Buffer): MultipartPart {
  const headerEnd = raw.indexOf('\r\n\r\n');
  if (headerEnd < 0) throw new MultipartError('a multipart part has no header section');
  const headers: Record<string, string> = {};
  for (const line of raw.subarray(0, headerEnd).toString('utf8').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MultipartError(`malformed part header line "${line.slice(0, 60)}"`);
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const disposition = headers['content-disposition'];
  if (!disposition || !/^form-data\s*(;|$)/i.test(disposition))
    throw new MultipartError('a multipart part lacks Content-Disposition: form-data');
  const params = headerParams(disposition);
  if (!params.name) throw new MultipartError('a multipart part has no name');
  const part: MultipartPart = { name: params.name, data: raw.subarray(headerEnd + 4) };
  if (params.filename !== undefined) part.filename = params.filename;
  if (headers['content-type']) part.contentType = headers['content-type'];
  return part;
}

/** Splits a multipart/form-data body into its parts; throws MultipartError with a clear message. */
export function parseMultipart(body: Buffer, boundary: string): MultipartPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw new MultipartError('the body does not contain the multipart boundary');
  const parts: MultipartPart[] = [];
  for (;;) {
    let start = pos + delimiter.length;
    // The closing delimiter is followed by "--".
    if (body[start] === 0x2d && body[start + 1] === 0x2d) return parts;
    // Transport padding, then CRLF.
    while (body[start] === 0x20 || body[start] === 0x09) start += 1;
    if (body[start] !== 0x0d || body[start + 1] !== 0x0a) throw new MultipartError('malformed multipart boundary line');
    start += 2;
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), start);
    if (next < 0) throw new MultipartError('the multipart body is not terminated by its closing boundary');
    parts.push(parsePart(body.subarray(start, next)));
    pos = next + 2;
  }
}
