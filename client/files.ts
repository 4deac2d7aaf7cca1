/**
 * Files from a backend (identity documents, a work-order photo, a delivery note): stored once,
 * encrypted with the codec keys, in the store the workers read (PostgreSQL with
 * CARDFLOW_DATABASE_URL, else CARDFLOW_FILE_STORE_DIR), so only the reference travels through
 * Temporal. Checked first against the provider's upload rule (`UploadFileSchema`: jpg, png or pdf
 * by extension, type and leading bytes, not empty, at most 2 MiB), naming the file and the rule.
 */
import { basename } from 'node:path';
import { UploadFileSchema } from '../provider/schemas/file';
import { readConfiguration, type Configuration } from '../platform/config/schema';
import { processEnv } from '../platform/config/process-env';
import { type FileStore, uploadKindOf } from '../platform/storage/file-store';
import { fileStoreFor } from '../platform/storage/from-config';
import { InvalidInputError, issueLines } from './validation';

export interface FileToStore {
  /** The file's name; its extension names its kind (jpg, jpeg, png or pdf). */
  filename: string;
  /** Defaults to the kind's content type; when given, it must name the same kind. */
  contentType?: string;
  data: Uint8Array;
}

/** What a workflow input takes: `ref` (a work order's `files[].ref`, `card unblock --file`). */
export interface StoredFileReference {
  /** `<sha256 hex>.<ext>`: the same content always gets the same reference. */
  ref: string;
  contentType: string;
  bytes: number;
}

export interface StoreFileOptions {
  /** The store to keep it in; default: the configured one, opened and closed for this call. */
  store?: FileStore;
  /** The configuration to open the default store from; default: read from the environment. */
  config?: Configuration;
}

/**
 * The problems that make the provider refuse `file` (`filename.field: rule` lines, never the
 * content), none when it would take it.
 */
export function uploadFileProblems(file: FileToStore): string[] {
  const contentType = file.contentType ?? uploadKindOf(file.filename)?.contentType ?? '';
  const parsed = UploadFileSchema.safeParse({ filename: file.filename, contentType, data: file.data });
  return parsed.success ? [] : issueLines(parsed.error, basename(file.filename) || 'file');
}

/**
 * Stores `file` for workflows and returns its reference; idempotent by content. Throws
 * {@link InvalidInputError}, having stored nothing, when the provider would refuse the file.
 */
export async function storeFile(file: FileToStore, options: StoreFileOptions = {}): Promise<StoredFileReference> {
  const problems = uploadFileProblems(file);
  if (problems.length) throw new InvalidInputError(`file ${basename(file.filename)}`, problems);
  const store = options.store ?? fileStoreFor(options.config ?? readConfiguration(processEnv()));
  try {
    const stored = await store.put(file.data, file.filename);
    return { ...stored, bytes: file.data.byteLength };
  } finally {
    if (!options.store) await store.close();
  }
}
