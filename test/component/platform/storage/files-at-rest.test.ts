/**
 * Supporting files are encrypted at rest in both stores `fileStoreFor` builds
 * (platform/storage/file-sealing.ts): a scan of everything each store holds (the directory's files,
 * every bytea of `cardflow_files`) finds no file content in clear, while the store reads it back.
 * The codec keys' rotation covers files: a file written under a retired key still reads while that
 * key is in the list, and not once it is gone (naming the key). A file stored in clear by an
 * earlier build still reads.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { fileStoreFor } from '../../../../platform/storage/from-config';
import { contentRef } from '../../../../platform/storage/file-store';
import { configured } from '../../../support/configured';
import { fileStoresUnderTest } from '../../support/file-stores';

/** A scanned ID photo: the marker stands for a face, a passport number, an address. */
const MARKER = 'PASSPORT-P99887766-ZOLTANA-QUIBBLEWORTH';
const PHOTO = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(`${MARKER} `.repeat(40))]);

const key = () => randomBytes(32).toString('base64');
const [oldKey, newKey] = [`k2026a:${key()}`, `k2026b:${key()}`];

const stores = fileStoresUnderTest('cardflow-files-at-rest-');

/** Every byte the directory store holds, file by file. */
function directoryBytes(root: string): Buffer[] {
  return readdirSync(root).flatMap((name) => {
    const full = path.join(root, name);
    return statSync(full).isDirectory() ? directoryBytes(full) : [readFileSync(full)];
  });
}

async function databaseBytes(url: string): Promise<Buffer[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ data: Buffer }>('SELECT data FROM cardflow_files');
    return rows.map((r) => r.data);
  } finally {
    await client.end();
  }
}

const holdsMarker = (bytes: Buffer[]) => bytes.some((b) => b.includes(MARKER));

it.each(['directory', 'postgresql'] as const)(
  'the %s store keeps no file content in clear, and reads it back across a key rotation',
  async (kind) => {
    const { url, env } = await stores.variables(kind);
    const settings = (keys: string) => configured({ ...env, CARDFLOW_CODEC_KEYS: keys });
    const scan = () => (url ? databaseBytes(url) : Promise.resolve(directoryBytes(stores.dir)));

    const before = fileStoreFor(settings(oldKey));
    const { ref } = await before.put(PHOTO, 'passport.jpg');
    await before.close();
    const stored = await scan();
    expect(stored.length).toBeGreaterThan(0);
    expect(holdsMarker(stored)).toBe(false);

    // Rotated: the new key is current, the old one still listed.
    const rotated = fileStoreFor(settings(`${newKey},${oldKey}`));
    expect(Buffer.from((await rotated.get(ref))!.data).equals(PHOTO)).toBe(true);
    const other = Buffer.from(`%PDF-1.4\n${MARKER}\n`);
    const second = await rotated.put(other, 'delivery-note.pdf');
    expect(Buffer.from((await rotated.get(second.ref))!.data).equals(other)).toBe(true);
    await rotated.close();
    expect(holdsMarker(await scan())).toBe(false);

    // The old key dropped too early: the file written with it no longer reads, and says why.
    const retired = fileStoreFor(settings(newKey));
    await expect(retired.get(ref)).rejects.toThrow(/key id "k2026a"/);
    await retired.close();
  },
);

it('a file stored in clear before encryption still reads', async () => {
  const { ref } = contentRef(PHOTO, 'passport.jpg');
  writeFileSync(path.join(stores.dir, ref), PHOTO);
  const store = fileStoreFor(configured({ CARDFLOW_CODEC_KEYS: oldKey, CARDFLOW_FILE_STORE_DIR: stores.dir }));
  expect(Buffer.from((await store.get(ref))!.data).equals(PHOTO)).toBe(true);
});
