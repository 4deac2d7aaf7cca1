/**
 * Supporting files are encrypted at rest in both stores `fileStoreFor` builds (storage/file-sealing.ts):
 * a scan of everything each store holds (the directory's files, every bytea of `cardflow_files`)
 * finds no file content in clear, while the store reads it back. The codec keys' rotation covers
 * files: a file written under a retired key still reads while that key is in the list, and not
 * once it is gone (naming the key). A file stored in clear by an earlier build still reads.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { fileStoreFor } from '../../../storage/from-config';
import { contentRef } from '../../../storage/file-store';
import { configured } from '../../support/configured';
import { type TestPostgres, startTestPostgres } from '../support/postgres';

/** A scanned ID photo: the marker stands for a face, a passport number, an address. */
const MARKER = 'PASSPORT-P99887766-ZOLTANA-QUIBBLEWORTH';
const PHOTO = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(`${MARKER} `.repeat(40))]);

const key = () => randomBytes(32).toString('base64');
const [oldKey, newKey] = [`k2026a:${key()}`, `k2026b:${key()}`];

let pg: TestPostgres;
let dir: string;
beforeAll(async () => {
  pg = await startTestPostgres();
}, 60_000);
afterAll(async () => pg?.stop());
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cardflow-files-at-rest-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

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
    const url = kind === 'postgresql' ? await pg.database() : undefined;
    const settings = (keys: string) =>
      configured({
        CARDFLOW_CODEC_KEYS: keys,
        CARDFLOW_FILE_STORE_DIR: dir,
        ...(url ? { CARDFLOW_DATABASE_URL: url } : {}),
      });
    const scan = () => (url ? databaseBytes(url) : Promise.resolve(directoryBytes(dir)));

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
  writeFileSync(path.join(dir, ref), PHOTO);
  const store = fileStoreFor(configured({ CARDFLOW_CODEC_KEYS: oldKey, CARDFLOW_FILE_STORE_DIR: dir }));
  expect(Buffer.from((await store.get(ref))!.data).equals(PHOTO)).toBe(true);
});
