/**
 * `npm start` (tools/scripts/start.ts) runs the interlock before anything else: with
 * CARDFLOW_ENV=production and no provider URL it would start its embedded sandbox, so it refuses
 * (exit 2) and starts nothing.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../../..');

it('npm start refuses production without a provider URL, before starting anything', () => {
  const key = Buffer.alloc(32, 7).toString('base64');
  const run = spawnSync(path.join(root, 'node_modules/.bin/tsx'), ['tools/scripts/start.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CARDFLOW_ENV: 'production',
      NODE_ENV: 'production',
      CARDFLOW_PROVIDER_API_KEY: 'live_0123456789',
      CARDFLOW_CODEC_KEYS: `k20260101:${key}`,
      CARDFLOW_DEMO: '0',
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.stderr).toContain(
    'CARDFLOW_PROVIDER_BASE_URL: CARDFLOW_ENV=production needs the provider URL here; without one this would start its embedded sandbox',
  );
  expect(run.stderr).toMatch(/nothing was started/);
  expect(run.stdout).not.toMatch(/codec server|sandbox at/);
  expect(run.status).toBe(2);
}, 70_000);
