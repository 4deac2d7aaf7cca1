/**
 * Which build a process runs: the build id of the workflow bundle built with the code, the same id
 * its workers poll Temporal as (workers/versioning.ts, docs/versioning.md) and every process
 * reports in `cardflow_build_info` (platform/telemetry/build-info.ts). It lives here, below every
 * room that reports it, so the receiver and the codec server name their build without reaching up
 * into workers/.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The build id of a workflow bundle: the first 16 hex digits of the SHA-256 of its code. Any
 * change to workflow code, to what it imports, or to the SDK's workflow runtime changes it; a
 * rebuild of the same sources does not (webpack's output is stable and holds no absolute path).
 */
export function buildIdOf(bundleCode: string): string {
  return createHash('sha256').update(bundleCode).digest('hex').slice(0, 16);
}

/**
 * The workflow bundle `npm run build` writes next to the compiled code (`dist/workflow-bundle.js`).
 * A compiled worker loads it instead of running webpack at start-up (seconds of CPU per start,
 * and webpack is then never loaded in production); under tsx or jest the sources are bundled.
 */
export const PREBUILT_BUNDLE_PATH = path.resolve(__dirname, '..', '..', 'workflow-bundle.js');

/**
 * The build id of this build's compiled bundle, for processes that run no workflows but say which
 * build they are (`cardflow_build_info`): `source` when running from the sources without one.
 */
export function compiledBuildId(): string {
  return __filename.endsWith('.js') && existsSync(PREBUILT_BUNDLE_PATH)
    ? buildIdOf(readFileSync(PREBUILT_BUNDLE_PATH, 'utf8'))
    : 'source';
}
