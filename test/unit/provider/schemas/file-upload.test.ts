/**
 * File upload request (spec: File upload): jpg, png or pdf by extension, content type and content;
 * at most 2 MiB.
 */
import { UPLOAD_MAX_BYTES } from '../../../../provider/rules';
import { FileUploadRequestSchema, sniffUploadKind } from '../../../../provider/schemas/file';
import { issues } from './helpers';

const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]);
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]);
const PDF = new TextEncoder().encode('%PDF-1.7\n');
const EXE = Uint8Array.from([0x4d, 0x5a, 0x90, 0x00]);

function upload(filename: string, contentType: string, data: Uint8Array, category = 'card') {
  return { category, file: { filename, contentType, data } };
}

describe('file upload request', () => {
  it.each([
    ['id.jpg', 'image/jpeg', JPEG],
    ['ID.JPEG', 'image/jpeg', JPEG],
    ['face.png', 'image/png', PNG],
    ['scan.pdf', 'application/pdf', PDF],
  ])('accepts %s', (name, type, data) => {
    expect(issues(FileUploadRequestSchema, upload(name, type, data))).toEqual([]);
  });

  it('keeps the bytes as given', () => {
    expect(FileUploadRequestSchema.parse(upload('id.jpg', 'image/jpeg', JPEG)).file.data).toBe(JPEG);
  });

  it.each([
    ['requires category "card"', upload('id.jpg', 'image/jpeg', JPEG, 'avatar'), 'category: must be "card"'],
    [
      'refuses another extension',
      upload('id.gif', 'image/jpeg', JPEG),
      'file.filename: extension must be one of jpg, png, pdf',
    ],
    [
      'refuses another content type',
      upload('id.jpg', 'image/gif', JPEG),
      'file.contentType: content type must be one of image/jpeg, image/png, application/pdf',
    ],
    [
      'refuses a mismatch between extension, content type and content',
      upload('id.png', 'image/png', JPEG),
      'file.data: extension (png), content type (png) and content (jpg) must agree',
    ],
  ])('%s', (_rule, request, message) => {
    expect(issues(FileUploadRequestSchema, request)).toEqual([message]);
  });

  it('refuses content that is none of the kinds (a renamed executable)', () => {
    expect(sniffUploadKind(EXE)).toBeUndefined();
    expect(issues(FileUploadRequestSchema, upload('id.jpg', 'image/jpeg', EXE))).toEqual([
      'file.data: content is not a jpg, png, pdf file',
    ]);
  });

  it('accepts exactly 2 MiB and refuses one byte more', () => {
    const atLimit = new Uint8Array(UPLOAD_MAX_BYTES);
    atLimit.set(PDF);
    expect(issues(FileUploadRequestSchema, upload('big.pdf', 'application/pdf', atLimit))).toEqual([]);
    const over = new Uint8Array(UPLOAD_MAX_BYTES + 1);
    over.set(PDF);
    expect(issues(FileUploadRequestSchema, upload('big.pdf', 'application/pdf', over))).toEqual([
      'file.data: size must be at most 2097152 bytes (2 MiB)',
    ]);
  });

  it('refuses a non-binary payload', () => {
    expect(
      issues(FileUploadRequestSchema, {
        category: 'card',
        file: { filename: 'a.pdf', contentType: 'application/pdf', data: 'JVBERi0=' },
      }),
    ).toEqual(['file.data: must be the file bytes (Uint8Array)']);
  });
});
