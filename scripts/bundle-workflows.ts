/**
 * Last step of `npm run build`: `node dist/scripts/bundle-workflows.js` writes the workflow bundle
 * the compiled worker loads at start-up (telemetry/build-id.ts, PREBUILT_BUNDLE_PATH).
 */
import { writePrebuiltBundle } from '../workers/create-worker';

writePrebuiltBundle().then(
  (files) => console.log(`workflow bundles: ${files.join(', ')}`),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
