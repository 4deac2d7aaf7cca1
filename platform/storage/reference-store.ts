/**
 * The provider's reference data (regions, cities, mobile area codes, occupations) as last read,
 * one entry per list with the provider's records and when they were read: the lists change very
 * rarely, so every process reads this cache; the worker's scheduled refresh replaces entries, and a
 * reader finding none reads the provider once and stores the answer. Records are plain JSON (the
 * provider client's schemas parse them on read). This file is the embedded default, one file per
 * list replaced whole by a rename; several machines share PostgreSQL
 * (postgres-reference-store.ts).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** One list as stored: its records and when the provider gave them. */
export interface ReferenceEntry {
  records: unknown[];
  /** When the provider answered, ms since the epoch. */
  fetchedAt: number;
}

export interface ReferenceStore {
  /** The list stored under `list`, or undefined when none was stored yet. */
  get(list: string): Promise<ReferenceEntry | undefined>;
  /** Stores `entry` as the list `list`, replacing what was stored. */
  put(list: string, entry: ReferenceEntry): Promise<void>;
  close(): Promise<void>;
}

/** A list name becomes a file name: letters, digits and dashes only, so it names no other path. */
const LIST_NAME = /^[a-z0-9-]+$/;

function checkedName(list: string): string {
  if (!LIST_NAME.test(list)) throw new Error(`reference store: '${list}' is not a list name (a-z, 0-9, -)`);
  return list;
}

/** The file store in `dir` (created on first write). */
export function createFileReferenceStore(dir: string): ReferenceStore {
  const fileOf = (list: string) => path.join(dir, `${checkedName(list)}.json`);
  return {
    async get(list) {
      const text = await readFile(fileOf(list), 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      return text === undefined ? undefined : (JSON.parse(text) as ReferenceEntry);
    },
    async put(list, entry) {
      const file = fileOf(list);
      await mkdir(dir, { recursive: true });
      // Written aside, then renamed over the old file: rename replaces it in one step.
      const aside = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(aside, JSON.stringify(entry));
      await rename(aside, file);
    },
    async close() {},
  };
}
