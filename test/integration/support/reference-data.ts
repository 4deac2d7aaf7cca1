/**
 * The reference data a backend's onboarding start is checked against, for the tier's starts: a
 * cache of its own in a fresh folder that reads the harness's sandbox when cold (as a backend
 * with the provider settings does), or one filled beforehand (as the workers' scheduled refresh
 * leaves it for a backend without them).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { referenceData, type ReferenceData } from '../../../client/reference-data';
import { createFileReferenceStore } from '../../../platform/storage/reference-store';
import { REFERENCE_LIST_NAMES, type ReferenceReader } from '../../../provider/reference-lists';

/** Reads the sandbox through `provider` when cold, caching in a fresh folder. */
export function sandboxReferenceData(provider: ReferenceReader): ReferenceData {
  return referenceData({
    store: createFileReferenceStore(mkdtempSync(join(tmpdir(), 'cardflow-reference-'))),
    provider,
  });
}

/** A folder holding every list read from the sandbox now: a CARDFLOW_REFERENCE_DIR. */
export async function filledReferenceDir(provider: ReferenceReader): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'cardflow-reference-'));
  const data = referenceData({ store: createFileReferenceStore(dir), provider });
  for (const name of REFERENCE_LIST_NAMES) await data.refresh(name);
  return dir;
}

/** Every list read from the sandbox now, then served from the cache alone (no provider). */
export async function filledReferenceData(provider: ReferenceReader): Promise<ReferenceData> {
  return referenceData({
    store: createFileReferenceStore(await filledReferenceDir(provider)),
    noProvider: 'the test gives the cache only',
  });
}
