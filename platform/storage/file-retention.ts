/**
 * Supporting files are personal data (ID photos, signed delivery notes) that cardflow needs only
 * until the provider has them: once an upload is recorded (the provider answered with its fileId)
 * the workflow goes on with that fileId and never reads the file again. The worker deletes such
 * files `CARDFLOW_FILE_RETENTION_DAYS` after their upload (FileStore.deleteUploadedBefore), at
 * start and every hour; every worker may run it, a file deleted twice is deleted once. The days
 * leave an operator time to look at what was sent, and a backend time to start another workflow
 * on the same file without storing it again (storing it again renews it).
 */
import type { FileStore } from './file-store';

const DAY_MS = 86_400_000;
const SWEEP_EVERY_MS = 3_600_000;

/**
 * Runs the sweep now and every hour until the returned function is called; never holds the process
 * open.
 */
export function startFileRetention(
  store: FileStore,
  opts: { retentionDays: number; onSwept: (deleted: number) => void; onError: (error: unknown) => void },
): () => void {
  const sweep = () =>
    store
      .deleteUploadedBefore(new Date(Date.now() - opts.retentionDays * DAY_MS))
      .then((deleted) => deleted > 0 && opts.onSwept(deleted), opts.onError);
  void sweep();
  const timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
