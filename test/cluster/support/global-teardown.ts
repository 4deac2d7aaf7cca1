import { takeStartedCluster } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  const state = await takeStartedCluster();
  if (!state) return;
  await new Promise<void>((resolve) => state.control.close(() => resolve()));
  await state.group.stopAll();
}
