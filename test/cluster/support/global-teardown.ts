import { rmSync } from 'node:fs';
import { takeStartedCluster } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  const state = await takeStartedCluster();
  if (!state) return;
  await new Promise<void>((resolve) => state.control.close(() => resolve()));
  await state.group.stopAll();
  // The database and every server's log; CARDFLOW_TEST_KEEP_LOGS keeps them for a failed run.
  if (!process.env.CARDFLOW_TEST_KEEP_LOGS) rmSync(state.dir, { recursive: true, force: true });
}
