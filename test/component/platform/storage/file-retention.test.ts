/**
 * Supporting files are deleted once the provider confirmed their upload and the retention has
 * passed (FileStore.deleteUploadedBefore, run by the worker: platform/storage/file-retention.ts),
 * in both stores: the upload's fileId stays recorded for the workflow that needs it; a file never
 * uploaded, or stored again since its upload, is kept. Cut-offs are given, not waited for.
 */
import { fileStoreFor } from '../../../../platform/storage/from-config';
import type { FileStore } from '../../../../platform/storage/file-store';
import { configured } from '../../../support/configured';
import { type StoreKind, fileStoresUnderTest } from '../../support/file-stores';

const ID_PHOTO = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('id photo')]);
const NOTE = Buffer.from('%PDF-1.4\n% delivery note\n');
const NOT_YET = Buffer.from('%PDF-1.4\n% waiting for its upload\n');

const stores = fileStoresUnderTest('cardflow-file-retention-');

async function storeOf(kind: StoreKind): Promise<FileStore> {
  return fileStoreFor(configured((await stores.variables(kind)).env));
}

it.each(['directory', 'postgresql'] as const)(
  'the %s store deletes uploaded files past the retention, keeping their fileIds and the files still needed',
  async (kind) => {
    const store = await storeOf(kind);
    try {
      const photo = await store.put(ID_PHOTO, 'id.jpg');
      const note = await store.put(NOTE, 'note.pdf');
      const waiting = await store.put(NOT_YET, 'later.pdf');
      await store.recordUpload('activation-1', photo.ref, 'F1');
      await store.recordUpload('activation-1', note.ref, 'F2');

      // Before the retention has passed for any upload: nothing goes.
      expect(await store.deleteUploadedBefore(new Date(Date.now() - 86_400_000))).toBe(0);

      // Another workflow stores the note again: it needs it, whatever the note's first upload.
      await new Promise((resolve) => setImmediate(resolve));
      await store.put(NOTE, 'same-note.pdf');
      const cutoff = new Date(Date.now() + 60_000);
      expect(await store.deleteUploadedBefore(cutoff)).toBe(1);
      expect(await store.get(photo.ref)).toBeUndefined();
      expect(await store.uploadedFileId('activation-1', photo.ref)).toBe('F1');
      expect(Buffer.from((await store.get(note.ref))!.data).equals(NOTE)).toBe(true);
      expect(Buffer.from((await store.get(waiting.ref))!.data).equals(NOT_YET)).toBe(true);
      // A second sweep (another worker) finds nothing more.
      expect(await store.deleteUploadedBefore(cutoff)).toBe(0);
    } finally {
      await store.close();
    }
  },
);
