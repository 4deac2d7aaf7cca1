/**
 * Proof that operators still read payloads: the Temporal Web UI (the dev server's, in headless
 * Chromium) shows a full onboarding's input decoded through the codec server, while the Temporal
 * service holds only ciphertext. Runs on a dev server of its own, started with
 * `--ui-codec-endpoint`.
 *
 * Needs Chromium: Debian's `chromium` package (`/usr/bin/chromium`), or CARDFLOW_CHROMIUM=<path>.
 * The screenshot goes to the git-ignored `.artifacts/codec/`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Runtime } from '@temporalio/worker';
import { chromium } from 'playwright-core';
import { createDataConverter } from '../../../../platform/codec/data-converter';
import { parseKeyList } from '../../../../platform/codec/keys';
import { type CodecServer, startCodecServer } from '../../../../platform/codec/server';
import { onboardingStartAttributes } from '../../../../domain/start-attributes';
import { cardflowSearchAttributes } from '../../../../domain/search-attributes';
import { onboardingWorkflowId } from '../../../../domain/workflow-ids';
import { WorkflowTypes } from '../../../../domain/workflows';
import { createLogger } from '../../../../platform/logging/logger';
import { resolveTemporalCli } from '../../../../tools/scripts/lib/temporal-cli';
import { CARD_TYPES, FAST_WAIT, workflowBundle } from '../../support/harness';
import { freePort } from '../../../../tools/scripts/lib/free-port';
import { distinctiveB2bHolder, startEncryptedWorld } from './encrypted-world';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const screenshotPath = path.join(repoRoot, '.artifacts', 'codec', 'ui-decoded-onboarding.png');
const chromiumPath = process.env.CARDFLOW_CHROMIUM ?? '/usr/bin/chromium';

const keyring = parseKeyList(`ui-proof:${randomBytes(32).toString('base64')}`);
const dataConverter = createDataConverter(keyring);
const suffix = Math.random().toString(36).slice(2, 8);
const holder = distinctiveB2bHolder(suffix);

let env: TestWorkflowEnvironment;
let codecServer: CodecServer;
let uiUrl: string;

beforeAll(async () => {
  if (!existsSync(chromiumPath))
    throw new Error(`no Chromium at ${chromiumPath}: apt-get install chromium, or set CARDFLOW_CHROMIUM`);
  if (Runtime.instantiator === undefined) Runtime.install({ logger: createLogger({ level: 'WARN' }) });
  const uiPort = await freePort();
  uiUrl = `http://127.0.0.1:${uiPort}`;
  // The embedded default: no token, loopback callers only, the UI's origin only.
  codecServer = await startCodecServer({
    keyring,
    port: 0,
    tokenlessAccess: 'loopback',
    allowedOrigins: [uiUrl, `http://localhost:${uiPort}`],
  });
  env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: await resolveTemporalCli() },
      ip: '127.0.0.1',
      ui: true,
      uiPort,
      searchAttributes: [...cardflowSearchAttributes],
      extraArgs: ['--ui-codec-endpoint', codecServer.url],
      log: { format: 'pretty', level: 'warn' },
    },
  });
  await workflowBundle();
}, 180_000);

afterAll(async () => {
  await env?.teardown();
  await codecServer?.stop();
});

describe('the Temporal Web UI with the codec server', () => {
  it('shows the onboarding input decoded', async () => {
    const namespace = env.namespace ?? 'default';
    const client = new Client({ connection: env.connection, namespace, dataConverter });
    const world = await startEncryptedWorld({ client, dataConverter, label: 'ui-proof' });
    const { taskQueue } = world;
    const customerRef = `ui-proof-${suffix}`;
    const workflowId = onboardingWorkflowId(customerRef);
    const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
    try {
      const worker = await world.worker(env.nativeConnection);
      await worker.runUntil(async () => {
        const handle = await client.workflow.start(WorkflowTypes.customerOnboarding, {
          workflowId,
          taskQueue,
          args: [
            { customerRef, cardTypeId: CARD_TYPES.b2bWithDeposit, holder, initialDeposit: '100', wait: FAST_WAIT },
          ],
          typedSearchAttributes: onboardingStartAttributes(customerRef),
        });
        await handle.result();
      });

      // What the service holds is ciphertext, so whatever the UI shows in clear came through the
      // codec server.
      const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
      const input = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
      expect(Buffer.from(input?.metadata?.encoding ?? []).toString()).toBe('binary/encrypted');
      expect(Buffer.from(input?.data ?? []).toString('latin1')).not.toContain(holder.email);

      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      const decodeStatuses: number[] = [];
      page.on('response', (response) => {
        if (response.url().startsWith(`${codecServer.url}/decode`) && response.request().method() === 'POST')
          decodeStatuses.push(response.status());
      });
      await page.goto(`${uiUrl}/namespaces/${namespace}/workflows/${workflowId}`);
      // The input card renders the decoded JSON once the codec server has answered.
      await page.getByText(holder.email).first().waitFor({ timeout: 30_000 });
      const text = await page.locator('body').innerText();
      expect(text).toContain(holder.lastName);
      expect(text).not.toContain('binary/encrypted');
      expect(decodeStatuses.length).toBeGreaterThan(0);
      expect(decodeStatuses.every((status) => status === 200)).toBe(true);
      await mkdir(path.dirname(screenshotPath), { recursive: true });
      await page.screenshot({ path: screenshotPath, fullPage: true });
    } finally {
      await browser.close();
      await world.stop();
    }
  }, 120_000);
});
