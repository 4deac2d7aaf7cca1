/**
 * Jest global teardown of the integration tier: replays every history the tier made with tracing
 * switched the other way (cross-replay.ts), searches every history for the 3DS codes and URLs the
 * sandboxes issued (issued-secrets.ts), then stops the dev server `global-setup.ts` started. A
 * history that does not replay, or that holds an issued code or URL, fails the run.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { crossReplay } from './cross-replay';
import { issuedSecretsFileEnv, scanHistoriesForIssuedSecrets } from './issued-secrets';
import { takeStartedEnvironment } from './global-setup';
import { codecKeysFileEnv, testTemporalServer } from './temporal-env';

export default async function globalTeardown(): Promise<void> {
  const env = takeStartedEnvironment();
  const keysFile = process.env[codecKeysFileEnv];
  try {
    const started = Date.now();
    const report = await crossReplay({ ...testTemporalServer(), ...(keysFile ? { codecKeysFile: keysFile } : {}) });
    process.stdout.write(
      `cross-replay: ${report.executions} executions; replayed ${report.replayed.traced} traced runs untraced and ` +
        `${report.replayed.untraced} untraced runs traced; left out ${report.skipped.foreignType} of test-only types ` +
        `and ${report.skipped.otherBuild} of other builds; ${report.failures.length} did not replay ` +
        `(${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
    );
    const scanStarted = Date.now();
    const scanned = await scanHistoriesForIssuedSecrets({
      ...testTemporalServer(),
      ...(keysFile ? { codecKeysFile: keysFile } : {}),
      issuedFile: process.env[issuedSecretsFileEnv],
    });
    process.stdout.write(
      `3DS scan: ${scanned.histories} histories searched for the ${scanned.issued} OTPs and authorization URLs the ` +
        `sandboxes issued and identity documents carried (payloads decoded with the codec; ${scanned.unreadable} no registered key opens); ` +
        `${scanned.finds.length} found (${((Date.now() - scanStarted) / 1000).toFixed(1)} s)\n`,
    );
    if (report.failures.length > 0) {
      throw new Error(
        `cross-replay: ${report.failures.length} histories do not replay with tracing switched:\n${report.failures.join('\n')}`,
      );
    }
    if (scanned.finds.length > 0)
      throw new Error(`3DS scan: a history holds an issued 3DS code or URL:\n${scanned.finds.join('\n')}`);
  } finally {
    await env?.teardown();
    if (keysFile) rmSync(dirname(keysFile), { recursive: true, force: true });
  }
}
