/**
 * The upload's multipart body as the sandbox reads it (Request.formData(),
 * tools/sandbox/server/multipart.ts): fields and files in order, binary content byte for byte, a
 * malformed body refused saying why.
 */
import { isMultipartFormData, MultipartError, parseMultipart } from '../../../../tools/sandbox/server/multipart';

const CRLF = '\r\n';

function body(boundary: string, parts: Array<{ headers: string[]; data: Buffer | string }>, closing = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}${CRLF}${part.headers.join(CRLF)}${CRLF}${CRLF}`));
    chunks.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data));
    chunks.push(Buffer.from(CRLF));
  }
  if (closing) chunks.push(Buffer.from(`--${boundary}--${CRLF}`));
  return Buffer.concat(chunks);
}

describe('isMultipartFormData', () => {
  it('accepts multipart/form-data only, whatever its case and parameters', () => {
    expect(isMultipartFormData('multipart/form-data; boundary=abc123')).toBe(true);
    expect(isMultipartFormData('Multipart/Form-Data; charset=utf-8; boundary="a b:c"')).toBe(true);
    expect(isMultipartFormData('application/x-www-form-urlencoded')).toBe(false);
    expect(isMultipartFormData('application/json')).toBe(false);
    expect(isMultipartFormData(undefined)).toBe(false);
  });
});

const form = (boundary: string) => `multipart/form-data; boundary=${boundary}`;

describe('parseMultipart', () => {
  it('returns fields and a binary file byte for byte', async () => {
    // Bytes that contain CR, LF and dashes, as a PNG does.
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x2d, 0x2d, 0x0d, 0x0a, 0x00, 0xff]);
    const raw = body('----b1', [
      { headers: ['Content-Disposition: form-data; name="category"'], data: 'card' },
      {
        headers: ['Content-Disposition: form-data; name="file"; filename="id front.png"', 'Content-Type: image/png'],
        data: png,
      },
    ]);
    const parts = await parseMultipart(raw, form('----b1'));
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatchObject({ name: 'category' });
    expect(parts[0]!.filename).toBeUndefined();
    expect(parts[0]!.data.toString()).toBe('card');
    expect(parts[1]).toMatchObject({ name: 'file', filename: 'id front.png', contentType: 'image/png' });
    expect(Buffer.compare(parts[1]!.data, png)).toBe(0);
  });

  it('keeps an empty file and reads a quoted boundary', async () => {
    const raw = body('a b:c', [
      { headers: ['content-disposition: form-data; name="file"; filename="a.pdf"'], data: '' },
    ]);
    const [part] = await parseMultipart(raw, 'multipart/form-data; boundary="a b:c"');
    expect(part).toMatchObject({ name: 'file', filename: 'a.pdf' });
    expect(part!.data.length).toBe(0);
  });

  it.each([
    ['no boundary in the body', Buffer.from('hello'), /no boundary found/],
    [
      'no closing boundary',
      body('B', [{ headers: ['Content-Disposition: form-data; name="a"'], data: 'x' }], false),
      /expected boundary/,
    ],
    [
      'a part without Content-Disposition',
      body('B', [{ headers: ['Content-Type: text/plain'], data: 'x' }]),
      /header name is null|content-disposition/i,
    ],
    [
      'a part without a name',
      body('B', [{ headers: ['Content-Disposition: form-data; filename="a.png"'], data: 'x' }]),
      /name attribute is required/,
    ],
  ])('refuses %s with a clear message', async (_label, raw, message) => {
    const parsed = parseMultipart(raw, form('B'));
    await expect(parsed).rejects.toThrow(MultipartError);
    await expect(parseMultipart(raw, form('B'))).rejects.toThrow(message);
  });

  it('refuses a content type without a boundary', async () => {
    await expect(parseMultipart(Buffer.from('x'), 'multipart/form-data')).rejects.toThrow(/missing boundary/);
  });
});
