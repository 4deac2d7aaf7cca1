/**
 * The kinds of supporting file cardflow keeps: exactly what the provider's upload takes (spec: File
 * upload, jpg, png or pdf). Extension(s), content type and leading magic bytes must all agree. It
 * lives here, below the provider client that re-exports it, because the file store names a stored
 * file by its kind too.
 */
export const UPLOAD_KINDS = [
  { kind: 'jpg', extensions: ['jpg', 'jpeg'], contentType: 'image/jpeg', magic: [0xff, 0xd8, 0xff] },
  {
    kind: 'png',
    extensions: ['png'],
    contentType: 'image/png',
    magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  },
  { kind: 'pdf', extensions: ['pdf'], contentType: 'application/pdf', magic: [0x25, 0x50, 0x44, 0x46, 0x2d] },
] as const;
