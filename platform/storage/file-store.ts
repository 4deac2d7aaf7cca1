/**
 * Files (identity documents, work-order files) between the backend that has them and the worker
 * that uploads them. A file is stored once under its content reference, `<sha256>.<ext>`; a
 * workflow carries only that, never bytes. The provider's upload has no key and no lookup, so the
 * store also records the fileId each upload returned, per workflow and reference, for a retry or
 * resume to reuse; an answer lost in flight costs one spare file at the provider, which carries no
 * money and no state. A directory is the embedded default; PostgreSQL serves several machines
 * (postgres-file-store.ts); both keep content as their {@link FileSealer} makes it.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { UPLOAD_KINDS } from './file-kinds';
import { CLEAR_FILES, type FileSealer } from './file-sealing';

export interface StoredFile {
  /** `<sha256 hex>.<ext>` for stored content; older workflows may name a plain file instead. */
  ref: string;
  contentType: string;
  data: Uint8Array;
}

export interface FileStore {
  /** Stores `data` (idempotent by content) and returns its reference. */
  put(data: Uint8Array, filename: string): Promise<{ ref: string; contentType: string }>;
  /** The file under `ref`, or undefined when the store has none. */
  get(ref: string): Promise<StoredFile | undefined>;
  /** The provider fileId an earlier upload of `ref` by workflow `scope` returned, if recorded. */
  uploadedFileId(scope: string, ref: string): Promise<string | undefined>;
  /** Records the fileId an upload of `ref` by workflow `scope` returned. */
  recordUpload(scope: string, ref: string, fileId: string): Promise<void>;
  /**
   * Deletes the content of every file the provider has taken since it was last stored, when that
   * upload was recorded before `cutoff` (the retention: platform/storage/file-retention.ts). The
   * upload records stay, so the workflows that uploaded a file reuse its fileId without it. A file
   * not uploaded since it was last stored is kept: a workflow may still need it. Returns how many.
   */
  deleteUploadedBefore(cutoff: Date): Promise<number>;
  close(): Promise<void>;
}

/**
 * A supporting file's kind from its name: the provider takes jpg, png and pdf (spec: File upload).
 */
export function uploadKindOf(filename: string): (typeof UPLOAD_KINDS)[number] | undefined {
  const ext = filename.toLowerCase().split('.').pop() ?? '';
  return UPLOAD_KINDS.find((k) => (k.extensions as readonly string[]).includes(ext));
}

/**
 * The content reference of `data` named `filename`: `<sha256 hex>.<ext>`; throws for a kind the
 * provider refuses.
 */
export function contentRef(data: Uint8Array, filename: string): { ref: string; contentType: string } {
  const kind = uploadKindOf(filename);
  if (!kind) {
    const accepted = UPLOAD_KINDS.flatMap((k) => k.extensions).join(', .');
    throw new Error(`${basename(filename)}: a supporting file must end in .${accepted}`);
  }
  const digest = createHash('sha256').update(data).digest('hex');
  return { ref: `${digest}.${kind.extensions[0]}`, contentType: kind.contentType };
}

/** A reference is a plain file name (no directory part), so it never leaves the store. */
function plainName(ref: string): string {
  const name = basename(ref);
  if (name !== ref || name.startsWith('.')) throw new Error(`file ${ref}: must be a plain file name`);
  return name;
}

/**
 * Wall-clock milliseconds with the fraction `performance.now()` adds: a file's own timestamps are
 * coarse (a kernel tick), too coarse to tell a put from the upload recorded right after it.
 */
function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

function uploadRecordName(scope: string, ref: string): string {
  return `${createHash('sha256').update(`${scope}\u0000${ref}`).digest('hex')}.json`;
}

/**
 * The embedded default: files under `dir` by reference, recorded uploads under `dir/.uploads`.
 * One machine only; production configures the PostgreSQL store.
 */
export function createDirectoryFileStore(dir: string, sealer: FileSealer = CLEAR_FILES): FileStore {
  const uploads = join(dir, '.uploads');
  const writeAtomically = async (file: string, data: Uint8Array | string) => {
    const staging = `${file}.${process.pid}.tmp`;
    await writeFile(staging, data);
    await rename(staging, file);
  };
  return {
    async put(data, filename) {
      const stored = contentRef(data, filename);
      await mkdir(dir, { recursive: true });
      const file = join(dir, stored.ref);
      await writeAtomically(file, await sealer.seal(data));
      // When it was last stored, for the retention (deleteUploadedBefore).
      const at = preciseNow() / 1000;
      await utimes(file, at, at);
      return stored;
    },
    async get(ref) {
      const name = plainName(ref);
      try {
        const data = await sealer.open(await readFile(join(dir, name)));
        return { ref, contentType: uploadKindOf(name)?.contentType ?? 'application/octet-stream', data };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async uploadedFileId(scope, ref) {
      try {
        const record = JSON.parse(await readFile(join(uploads, uploadRecordName(scope, ref)), 'utf8')) as {
          fileId?: unknown;
        };
        return typeof record.fileId === 'string' ? record.fileId : undefined;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async recordUpload(scope, ref, fileId) {
      await mkdir(uploads, { recursive: true });
      await writeAtomically(
        join(uploads, uploadRecordName(scope, ref)),
        JSON.stringify({ scope, ref, fileId, recordedAt: preciseNow() }),
      );
    },
    async deleteUploadedBefore(cutoff) {
      // The latest upload of each file (records written before `recordedAt` existed: their mtime).
      const uploadedAt = new Map<string, number>();
      for (const name of await readdir(uploads).catch(() => [] as string[])) {
        if (!name.endsWith('.json')) continue;
        const file = join(uploads, name);
        const [record, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]).catch(() => [
          undefined,
          undefined,
        ]);
        if (!record || !info) continue;
        const { ref, recordedAt } = JSON.parse(record) as { ref?: unknown; recordedAt?: unknown };
        const at = typeof recordedAt === 'number' ? recordedAt : info.mtimeMs;
        if (typeof ref === 'string') uploadedAt.set(ref, Math.max(uploadedAt.get(ref) ?? 0, at));
      }
      let deleted = 0;
      for (const [ref, at] of uploadedAt) {
        if (at >= cutoff.getTime()) continue;
        const file = join(dir, plainName(ref));
        // Stored again after its last upload (a put rewrites it): another workflow may need it.
        const stored = await stat(file).catch(() => undefined);
        if (!stored || stored.mtimeMs > at) continue;
        await unlink(file).then(
          () => deleted++,
          (error: NodeJS.ErrnoException) => {
            if (error.code !== 'ENOENT') throw error;
          },
        );
      }
      return deleted;
    },
    async close() {},
  };
}
