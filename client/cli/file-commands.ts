/**
 * `cardflow files put <path>`: stores a supporting file where the workers read it (client/files.ts)
 * and prints its reference, which `card unblock --file` and a work order's `files[].ref` take.
 * A file the provider would refuse (kind, size, content) is refused here, naming the rule.
 */
import { readFile } from 'node:fs/promises';
import { storeFile } from '../files';
import { type CliContext, type Command, ExitCodes, printResult, UsageError } from './context';

async function put(ctx: CliContext, path: string | undefined): Promise<number> {
  if (!path) throw new UsageError('files put needs a <path> (a jpg, png or pdf of at most 2 MiB)');
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (error) {
    throw new UsageError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'read error'})`);
  }
  const stored = await storeFile({ filename: path, data }, { config: ctx.config });
  printResult(ctx, stored, () => stored.ref);
  return ExitCodes.done;
}

export const FILES_COMMAND: Command = {
  name: 'files',
  usage: ['files put <path> [--json]'],
  summary: 'store a supporting file (jpg, png or pdf, at most 2 MiB) and print its reference',
  details: [
    '',
    "The reference is what `card unblock --file` and a work order's files[].ref take. The file is",
    'kept encrypted with the codec keys in the store the workers read (PostgreSQL with',
    'CARDFLOW_DATABASE_URL, else CARDFLOW_FILE_STORE_DIR); the same content gets the same reference.',
  ],
  options: ['json'],
  run: async (ctx, [action, path]) => {
    if (action !== 'put') throw new UsageError('files needs: put <path>');
    return put(ctx, path);
  },
};
