/**
 * Storing a supporting file from a backend (client storeFile) and from the CLI (`cardflow files
 * put`): checked against the provider's upload rule before anything is kept, kept encrypted where
 * the workers read it, and named by the reference a workflow input takes.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InvalidInputError, storeFile, uploadFileProblems } from '../../../client';
import { ExitCodes } from '../../../client/cli/context';
import { readConfiguration } from '../../../platform/config/schema';
import { fileStoreFor } from '../../../platform/storage/from-config';
import { UPLOAD_MAX_BYTES } from '../../../provider/rules';
import { storedFileRefIssue } from '../../../domain/stored-files';
import { runOffline } from './cli/cli-run';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('passport front, clear text marker'),
]);
const PDF = Buffer.from('%PDF-1.4\n% delivery note\n');

let dir: string;
let env: Record<string, string>;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'client-files-'));
  env = { CARDFLOW_FILE_STORE_DIR: path.join(dir, 'store') };
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const storedNames = async () =>
  (await readdir(path.join(dir, 'store')).catch(() => [])).filter((n) => !n.startsWith('.'));

it('stores a file sealed in the configured store, which a worker reads back by the returned reference', async () => {
  const config = readConfiguration(env);
  const stored = await storeFile({ filename: 'front.png', data: PNG }, { config });
  expect(stored).toEqual({
    ref: expect.stringMatching(/^[0-9a-f]{64}\.png$/),
    contentType: 'image/png',
    bytes: PNG.length,
  });
  expect(storedFileRefIssue(stored.ref)).toBeUndefined();
  expect(await storeFile({ filename: 'again.PNG', data: PNG }, { config })).toEqual(stored);
  expect(await storedNames()).toEqual([stored.ref]);
  // Encrypted at rest: the clear content is not in the stored bytes.
  const atRest = await readFile(path.join(dir, 'store', stored.ref));
  expect(atRest.includes(Buffer.from('passport front'))).toBe(false);
  const worker = fileStoreFor(config);
  const read = await worker.get(stored.ref);
  await worker.close();
  expect(Buffer.from(read!.data).equals(PNG)).toBe(true);
});

it.each([
  [
    'an extension the provider does not take',
    { filename: 'front.gif', data: PNG },
    /front\.gif\.filename: extension must be one of jpg, png, pdf/,
  ],
  [
    "a content type that is not the extension's kind",
    { filename: 'front.png', contentType: 'application/pdf', data: PNG },
    /front\.png\.data: extension \(png\), content type \(pdf\) and content \(png\) must agree/,
  ],
  [
    'bytes that are not the named kind',
    { filename: 'front.jpg', data: PNG },
    /front\.jpg\.data: extension \(jpg\), content type \(jpg\) and content \(png\) must agree/,
  ],
  ['an empty file', { filename: 'note.pdf', data: new Uint8Array() }, /note\.pdf\.data: file must not be empty/],
  [
    'a file over 2 MiB',
    { filename: 'note.pdf', data: Buffer.concat([PDF, Buffer.alloc(UPLOAD_MAX_BYTES)]) },
    /note\.pdf\.data: size must be at most 2097152 bytes/,
  ],
])('refuses %s before storing anything, naming the file and the rule', async (_what, file, rule) => {
  expect(uploadFileProblems(file).join('\n')).toMatch(rule);
  const refused = storeFile(file, { config: readConfiguration(env) });
  await expect(refused).rejects.toBeInstanceOf(InvalidInputError);
  await expect(refused).rejects.toThrow(rule);
  expect(await storedNames()).toEqual([]);
});

it('cardflow files put prints the reference card unblock --file takes; a refused file stores nothing', async () => {
  await writeFile(path.join(dir, 'note.pdf'), PDF);
  const put = await runOffline(['files', 'put', path.join(dir, 'note.pdf')], { env });
  expect(put).toMatchObject({ code: ExitCodes.done, connected: false });
  expect(put.out).toMatch(/^[0-9a-f]{64}\.pdf$/);
  expect(await storedNames()).toEqual([put.out]);
  const json = await runOffline(['files', 'put', path.join(dir, 'note.pdf'), '--json'], { env });
  expect(JSON.parse(json.out)).toEqual({ ref: put.out, contentType: 'application/pdf', bytes: PDF.length });

  await writeFile(path.join(dir, 'note.png'), PDF);
  const refused = await runOffline(['files', 'put', path.join(dir, 'note.png')], { env });
  expect(refused).toMatchObject({ code: ExitCodes.usage, connected: false });
  expect(refused.err).toMatch(
    /note\.png\.data: extension \(png\), content type \(png\) and content \(pdf\) must agree/,
  );
  expect(refused.err).toMatch(/nothing was started/);
  expect(await storedNames()).toEqual([put.out]);

  const missing = await runOffline(['files', 'put', path.join(dir, 'absent.pdf')], { env });
  expect(missing).toMatchObject({ code: ExitCodes.usage });
  expect(missing.err).toMatch(/cannot read .*absent\.pdf \(ENOENT\)/);
  expect(await runOffline(['files', 'get', 'x'], { env })).toMatchObject({ code: ExitCodes.usage });
});
