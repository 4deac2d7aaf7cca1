/**
 * `npm run replay-gate -- [--bundle <file>] [--histories <dir>]...`: the pre-release check of
 * docs/versioning.md. Replays the saved histories and every exported folder (encrypted: the codec
 * keys come from CARDFLOW_CODEC_KEYS as for every process) against a bundle, by default the
 * build's own. Exit 0 when every history this build will meet replays, 1 otherwise; a PINNED
 * history of another build is listed, not counted, unless `--moving-pinned` is given before an
 * operator moves such runs onto this build.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { dataConverterFor } from '../../platform/codec/data-converter';
import { processEnv } from '../../platform/config/process-env';
import { readConfiguration } from '../../platform/config/schema';
import { loadHistories, runReplayGate } from '../../workers/replay-gate';

const ROOT = path.resolve(__dirname, '..', '..');
export const SAVED_HISTORIES = path.join(ROOT, 'test', 'fixtures', 'histories');

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      bundle: { type: 'string' },
      histories: { type: 'string', multiple: true },
      'no-saved': { type: 'boolean' },
      'moving-pinned': { type: 'boolean' },
    },
  });
  const bundlePath = path.resolve(values.bundle ?? path.join(ROOT, 'dist', 'workflow-bundle.js'));
  if (!existsSync(bundlePath)) {
    console.error(`replay gate: no bundle at ${bundlePath} (npm run build writes dist/workflow-bundle.js)`);
    return 2;
  }
  const dirs = [...(values['no-saved'] ? [] : [SAVED_HISTORIES]), ...(values.histories ?? [])];
  const histories = await loadHistories(dirs);
  const { dataConverter } = dataConverterFor(readConfiguration(processEnv(), { withoutInterlock: true }));
  const result = await runReplayGate({ codePath: bundlePath }, histories, {
    dataConverter,
    movingPinned: values['moving-pinned'] ?? false,
  });
  for (const p of result.pinnedElsewhere)
    console.log(`pinned to build ${p.buildId}, not counted  ${p.workflowType} ${p.workflowId} (${p.file})`);
  for (const f of result.failures)
    console.log(`DOES NOT REPLAY  ${f.versioning} ${f.workflowType} ${f.workflowId} (${f.file}): ${f.error}`);
  console.log(
    `replay gate: build ${result.buildId} (${bundlePath}): ${result.replayed} histories from ${dirs.join(', ')} replayed, ` +
      `${result.failures.length} do not; ${result.pinnedElsewhere.length} pinned to other builds not counted`,
  );
  const failed = result.failures.length > 0;
  return failed ? 1 : 0;
}

if (require.main === module)
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(2);
    },
  );
