import { MultipartError, multipartBoundary, parseMultipart } from '../../../sandbox/server/multipart';

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

describe('multipartBoundary', () => {
  it('reads plain and quoted boundaries of multipart/form-data only', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc123')).toBe('abc123');
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b:c"')).toBe('a b:c');
    expect(multipartBoundary('application/json')).toBeUndefined();
    expect(multipartBoundary('multipart/form-data')).toBeUndefined();
    expect(multipartBoundary(undefined)).toBeUndefined();
    expect(multipartBoundary(`multipart/form-data; boundary=${'x'.repeat(71)}`)).toBeUndefined();
  });
});

describe('parseMultipart', () => {
  it('returns fields and a binary file byte for byte', () => {
    // Bytes that contain CR, LF and dashes, as a PNG does.
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x2d, 0x2d, 0x0d, 0x0a, 0x00, 0xff]);
    const raw = body('----b1', [
      { headers: ['Content-Disposition: form-data; name="category"'], data: 'card' },
      {
        headers: ['Content-Disposition: form-data; name="file"; filename="id front.png"', 'Content-Type: image/png'],
        data: png,
      },
    ]);
    const parts = parseMultipart(raw, '----b1');
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatchObject({ name: 'category' });
    expect(parts[0]!.filename).toBeUndefined();
    expect(parts[0]!.data.toString()).toBe('card');
    expect(parts[1]).toMatchObject({ name: 'file', filename: 'id front.png', contentType: 'image/png' });
    expect(Buffer.compare(parts[1]!.data, png)).toBe(0);
  });

  it('keeps an empty part and a filename with an escaped quote', () => {
    const raw = body('B', [
      { headers: ['content-disposition: form-data; name="file"; filename="a\\"b.pdf"'], data: '' },
    ]);
    const [part] = parseMultipart(raw, 'B');
    expect(part).toMatchObject({ name: 'file', filename: 'a"b.pdf' });
    expect(part!.data.length).toBe(0);
  });

  it.each([
    ['no boundary in the body', Buffer.from('hello'), /does not contain the multipart boundary/],
    [
      'no closing boundary',
      body('B', [{ headers: ['Content-Disposition: form-data; name="a"'], data: 'x' }], false),
      /not terminated/,
    ],
    [
      'a part without Content-Disposition',
      body('B', [{ headers: ['Content-Type: text/plain'], data: 'x' }]),
      /Content-Disposition/,
    ],
    [
      'a part without a name',
      body('B', [{ headers: ['Content-Disposition: form-data; filename="a.png"'], data: 'x' }]),
      /no name/,
    ],
    [
      'a malformed header line',
      body('B', [{ headers: ['Content-Disposition form-data'], data: 'x' }]),
      /malformed part header/,
    ],
  ])('refuses %s with a clear message', (_label, raw, message) => {
    expect(() => parseMultipart(raw, 'B')).toThrow(MultipartError);
    expect(() => parseMultipart(raw, 'B')).toThrow(message);
  });
});
