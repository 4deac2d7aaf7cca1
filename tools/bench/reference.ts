/**
 * The reference data a bench onboarding's start is checked against, as a backend's start is:
 * every list read once from a sandbox of its own, then served from a cache for the whole run (the
 * sandbox's lists are fixed data, the same in every phase's sandbox). The check stays in what the
 * bench measures; only the first read of each list is left out.
 */
import { startOnboarding } from '../../client/onboarding';
import type { ReferenceData } from '../../client/reference-data';
import { createProviderClient } from '../../provider/client';
import { filledReferenceData } from '../../test/integration/support/reference-data';
import { startSandbox, ZERO_DELAYS } from '../sandbox/index';

let cached: Promise<ReferenceData> | undefined;

async function readOnce(): Promise<ReferenceData> {
  const sandbox = await startSandbox({ delays: ZERO_DELAYS });
  const provider = createProviderClient(sandbox.clientConfig());
  try {
    return await filledReferenceData(provider);
  } finally {
    await provider.close();
    await sandbox.stop();
  }
}

/** The run's reference data, read on first use. */
export function benchReferenceData(): Promise<ReferenceData> {
  return (cached ??= readOnce());
}

/** `startOnboarding`, checked against the run's reference data. */
export async function startBenchOnboarding(...[client, input, opts]: Parameters<typeof startOnboarding>) {
  return startOnboarding(client, input, { ...opts, referenceData: await benchReferenceData() });
}
