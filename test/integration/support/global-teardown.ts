/** Jest global teardown of the integration tier: stops the dev server `global-setup.ts` started. */
import { takeStartedEnvironment } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  await takeStartedEnvironment()?.teardown();
}
