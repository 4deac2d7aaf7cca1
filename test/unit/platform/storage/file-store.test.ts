import { configured } from '../../../support/configured';
/** The directory file store: content references, reads, recorded uploads per workflow. */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { contentRef, createDirectoryFileStore } from '../../../../platform/storage/file-store';
import { fileStoreFor } from '../../../../platform/storage/from-config';

const PDF = Buffer.from('%PDF-1.4\n% proof of delivery\n');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'file-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('names content by its SHA-256 and kind, and refuses a kind the provider does not take', () => {
  const { ref, contentType } = contentRef(PDF, 'Delivery Note.PDF');
  expect(ref).toMatch(/^[0-9a-f]{64}\.pdf$/);
  expect(contentType).toBe('application/pdf');
  expect(contentRef(PDF, 'other-name.pdf').ref).toBe(ref);
  expect(() => contentRef(PDF, 'note.docx')).toThrow(/must end in \.jpg, \.jpeg, \.png, \.pdf/);
});

it('stores once per content and reads it back; an unknown reference is undefined', async () => {
  const store = createDirectoryFileStore(dir);
  const first = await store.put(PDF, 'a.pdf');
  const again = await store.put(PDF, 'b.pdf');
  expect(again).toEqual(first);
  expect((await readdir(dir)).filter((n) => !n.startsWith('.'))).toEqual([first.ref]);
  const read = await store.get(first.ref);
  expect(Buffer.from(read!.data).equals(PDF)).toBe(true);
  expect(read!.contentType).toBe('application/pdf');
  expect(await store.get(`${'0'.repeat(64)}.pdf`)).toBeUndefined();
  await expect(store.get('../etc/passwd')).rejects.toThrow(/plain file name/);
});

it('records the fileId an upload returned per workflow and reference', async () => {
  const store = createDirectoryFileStore(dir);
  const { ref } = await store.put(PDF, 'a.pdf');
  expect(await store.uploadedFileId('activation-1', ref)).toBeUndefined();
  await store.recordUpload('activation-1', ref, 'F123');
  expect(await store.uploadedFileId('activation-1', ref)).toBe('F123');
  expect(await store.uploadedFileId('activation-2', ref)).toBeUndefined();
  // Another store on the same directory (another process of this machine) sees it.
  expect(await createDirectoryFileStore(dir).uploadedFileId('activation-1', ref)).toBe('F123');
});

it('from the environment: CARDFLOW_FILE_STORE_DIR, else .data/files under the working directory', async () => {
  const { ref } = await fileStoreFor(configured({ CARDFLOW_FILE_STORE_DIR: dir })).put(PDF, 'a.pdf');
  expect(await readdir(dir)).toContain(ref);
  expect(await fileStoreFor(configured({ CARDFLOW_FILE_STORE_DIR: dir })).get(ref)).toBeDefined();
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const stored = await fileStoreFor(configured({})).put(PDF, 'a.pdf');
    expect(await readdir(path.join(dir, '.data', 'files'))).toContain(stored.ref);
  } finally {
    process.chdir(cwd);
  }
});
