/**
 * Last step of `npm run build`: `node dist/tools/scripts/bundle-workflows.js` writes the workflow
 * bundle the compiled worker loads at start-up (platform/telemetry/build-id.ts,
 * PREBUILT_BUNDLE_PATH).
 */
import { writePrebuiltBundle } from '../../workers/create-worker';

writePrebuiltBundle().then(
  (files) => console.log(`workflow bundles: ${files.join(', ')}`),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
