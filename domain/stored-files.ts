/**
 * A reference to a file in cardflow's file store (platform/storage/file-store.ts): what the
 * client's `storeFile` and `cardflow files put` return (`<sha256>.<ext>`; an older store may hold
 * plain names), and what a work order's `files[].ref` and a card unblock take. A plain name, never
 * a path, so a reference cannot leave the store; its extension is a kind the provider takes.
 */
import { UPLOAD_KINDS } from '../provider/rules';

const STORED_REF_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const EXTENSIONS: readonly string[] = UPLOAD_KINDS.flatMap((k) => [...k.extensions]);

/** What is wrong with `ref` as a stored file's reference, or undefined when it is one. */
export function storedFileRefIssue(ref: unknown): string | undefined {
  if (typeof ref !== 'string' || !STORED_REF_RE.test(ref))
    return 'must be a file name in the file store (letters, digits, "_", ".", "-"), as `cardflow files put` printed it';
  if (!EXTENSIONS.includes(ref.toLowerCase().split('.').pop() ?? ''))
    return `must end in one of .${EXTENSIONS.join(', .')}`;
  return undefined;
}
