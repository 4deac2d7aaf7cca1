/**
 * `npm run replay-gate -- [--bundle <file>] [--histories <dir>]...`: the pre-release check of
 * docs/versioning.md. Replays the saved histories (test/fixtures/histories) and every folder
 * given (exported by `cardflow histories export`, payloads encrypted: the codec keys come from
 * CARDFLOW_CODEC_KEYS(_FILE) as for every process) against a workflow bundle, by default the
 * build's own (`npm run build` writes dist/workflow-bundle.js).
 *
 * Exit 0: nothing an upgrading workflow meets breaks. Exit 1: a history of an AUTO_UPGRADE type
 * (cardEntity) does not replay, or with --strict any history does. A PINNED type's failure is
 * listed: its runs must finish on the build that started them (keep that version's workers).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { dataConverterFor } from '../codec/data-converter';
import { processEnv } from '../config/process-env';
import { readConfiguration } from '../config/schema';
import { loadHistories, runReplayGate } from '../workers/replay-gate';

const ROOT = path.resolve(__dirname, '..');
export const SAVED_HISTORIES = path.join(ROOT, 'test', 'fixtures', 'histories');

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      bundle: { type: 'string' },
      histories: { type: 'string', multiple: true },
      'no-saved': { type: 'boolean' },
      strict: { type: 'boolean' },
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
  const result = await runReplayGate({ codePath: bundlePath }, histories, { dataConverter });
  for (const f of result.failures)
    console.log(
      `${f.versioning === 'AUTO_UPGRADE' ? 'BLOCKS' : 'pinned'}  ${f.workflowType} ${f.workflowId} (${f.file}): ${f.error}`,
    );
  console.log(
    `replay gate: ${result.replayed} histories from ${dirs.join(', ')} on ${bundlePath}: ${result.failures.length} do not replay, ${result.blocking.length} of them AUTO_UPGRADE`,
  );
  const failed = values.strict ? result.failures.length > 0 : result.blocking.length > 0;
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
