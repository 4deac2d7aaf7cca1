/**
 * The `cardflow` command line end to end on the dev server and the sandbox: --json read commands,
 * `list` through the search attributes, `cancel` and `retry` of an onboarding, and the sandbox
 * commands (review, trigger authorization, resend, commits) driving the provider's test helpers.
 */
import { inputFiles } from '../../support/input-files';
import { runCliOn } from '../../support/run-cli';
import { ExitCodes } from '../../../client/cli/context';
import type { OnboardingProgress } from '../../../domain/customer-onboarding';
import { cardholdersByEmail, CARD_TYPES, customerRef, FAST_WAIT, harnessPerFile } from '../support/harness';
import { eventually, startCardHarness } from '../support/card-harness';
import { b2bHolder, uniqueEmail } from '../support/holders';
import { testTemporalServer } from '../support/temporal-env';
import { filledReferenceDir } from '../support/reference-data';

jest.setTimeout(120_000);

const h = harnessPerFile(startCardHarness);
const files = inputFiles('cardflow-cli-');
// The reference data an onboarding's holder is checked against, as the workers' refresh leaves it.
let referenceDir: string;
beforeAll(async () => {
  referenceDir = await filledReferenceDir(h.provider);
});

function cli(args: string[]) {
  return runCliOn(
    { client: h.client, namespace: testTemporalServer().namespace },
    [...args, '--task-queue', h.taskQueue],
    {
      env: {
        CARDFLOW_PROVIDER_BASE_URL: h.sandbox.url,
        CARDFLOW_PROVIDER_API_KEY: h.sandbox.keys.apiKey,
        CARDFLOW_REFERENCE_DIR: referenceDir,
      },
    },
  );
}

function file(content: unknown): string {
  return files.file(`${Math.random().toString(36).slice(2)}.json`, content);
}

it('onboard, then progress, result and list as JSON for scripts', async () => {
  const ref = customerRef('cli-json');
  await h.withCardWorker(async () => {
    const started = await cli([
      'onboard',
      '--file',
      file({ customerRef: ref, cardTypeId: CARD_TYPES.noHolderNoDeposit, initialDeposit: '20', wait: FAST_WAIT }),
    ]);
    expect(started).toMatchObject({ code: ExitCodes.done });
    const result = await cli(['result', ref, '--json']);
    expect(result.code).toBe(ExitCodes.done);
    const parsed = JSON.parse(result.out) as { status: string; result: { card: { cardNo: string } } };
    expect(parsed.status).toBe('COMPLETED');
    const progress = JSON.parse((await cli(['progress', ref, '--json'])).out) as OnboardingProgress;
    expect(progress).toMatchObject({ customerRef: ref, stage: 'completed', cardNo: parsed.result.card.cardNo });
    const listed = await eventually(
      async () =>
        JSON.parse((await cli(['list', '--customer', ref, '--stage', 'completed', '--json'])).out) as {
          workflows: Array<{ workflowId: string; cardNo?: string }>;
        },
      (l) => l.workflows.length === 1,
      'the onboarding listed by visibility',
    );
    expect(listed.workflows[0]).toMatchObject({ workflowId: `onboarding-${ref}`, cardNo: parsed.result.card.cardNo });
    const byCard = await cli(['list', '--card', parsed.result.card.cardNo]);
    expect(byCard.out).toContain(`onboarding-${ref}`);
  });
});

it('cancel stops an onboarding in review; retry resumes it; sandbox review --approve lets it complete', async () => {
  const ref = customerRef('cli-cancel');
  const email = uniqueEmail('review.stall');
  await h.withCardWorker(async () => {
    expect(
      (
        await cli([
          'onboard',
          '--file',
          file({
            customerRef: ref,
            cardTypeId: CARD_TYPES.b2bWithDeposit,
            holder: b2bHolder(email),
            initialDeposit: '50',
            wait: FAST_WAIT,
          }),
        ])
      ).code,
    ).toBe(ExitCodes.done);
    await eventually(
      async () => JSON.parse((await cli(['progress', ref, '--json'])).out) as OnboardingProgress,
      (p) => p.stage === 'cardholder_review',
      'review',
    );
    const cancelled = await cli(['cancel', ref]);
    expect(cancelled).toMatchObject({ code: ExitCodes.done });
    expect(cancelled.out).toMatch(new RegExp(`onboarding-${ref} is CANCELLED: stopped in cardholder_review`));

    const resumed = await cli(['retry', ref]);
    expect(resumed.code).toBe(ExitCodes.done);
    expect(resumed.out).toMatch(/^resumed onboarding-.*which ended CANCELLED/);
    const [holder] = await eventually(
      () => cardholdersByEmail(h.provider, email),
      (holders) => holders.length === 1,
      'the holder',
    );
    // The resumed run found the holder still in review: approve both stages from the terminal.
    for (;;) {
      const review = await cli(['sandbox', 'review', holder!.holderId, '--approve']);
      expect(review.code).toBe(ExitCodes.done);
      const [now] = await cardholdersByEmail(h.provider, email);
      if (now?.status === 'pass_audit') break;
    }
    const result = await cli(['result', ref]);
    expect(result).toMatchObject({ code: ExitCodes.done });
    expect(result.out).toContain(`customer ${ref}: card`);
  });
  expect(await cardholdersByEmail(h.provider, email)).toHaveLength(1);
});

it('sandbox trigger authorization, commits and resend drive the sandbox from the terminal', async () => {
  const ref = customerRef('cli-sandbox');
  const cardNo = await h.withCardWorker(async () => {
    await cli([
      'onboard',
      '--file',
      file({ customerRef: ref, cardTypeId: CARD_TYPES.noHolderNoDeposit, initialDeposit: '20', wait: FAST_WAIT }),
    ]);
    const result = JSON.parse((await cli(['result', ref, '--json'])).out) as { result: { card: { cardNo: string } } };
    return result.result.card.cardNo;
  });
  const triggered = await cli(['sandbox', 'trigger', 'authorization', '--card', cardNo, '--amount', '3.50', '--json']);
  expect(triggered.code).toBe(ExitCodes.done);
  expect(JSON.parse(triggered.out)).toMatchObject({ cardNo });
  const auths = await h.provider.listCardAuthTransactions({ pageNum: 1, pageSize: 10, cardNo });
  expect(auths.records.map((a) => a.authorizedAmount)).toContain('3.50');

  const commits = JSON.parse((await cli(['sandbox', 'commits', '--operation', 'createCard', '--json'])).out) as Array<{
    refs: { cardNo?: string };
  }>;
  expect(commits.filter((c) => c.refs.cardNo === cardNo)).toHaveLength(1);
  // The key read from the file CARDFLOW_PROVIDER_API_KEY_FILE names, as a deployed process has it.
  const fromFile = await runCliOn(
    { client: h.client, namespace: testTemporalServer().namespace },
    ['sandbox', 'commits', '--operation', 'createCard', '--json'],
    {
      env: {
        CARDFLOW_PROVIDER_BASE_URL: h.sandbox.url,
        CARDFLOW_PROVIDER_API_KEY_FILE: files.file('provider-api-key', `${h.sandbox.keys.apiKey}\n`),
      },
    },
  );
  expect(fromFile.code).toBe(ExitCodes.done);
  expect(JSON.parse(fromFile.out)).toEqual(commits);

  const delivered = h.sandbox.deliveries.log().filter((d) => d.status === 'delivered');
  const last = delivered.at(-1)!;
  const resent = await cli(['sandbox', 'resend', last.requestId]);
  expect(resent).toMatchObject({ code: ExitCodes.done });
  expect(resent.out).toBe(`re-delivered ${last.category} ${last.requestId}: delivered`);
  const unknown = await cli(['sandbox', 'resend', 'no-such-request']);
  expect(unknown.code).toBe(ExitCodes.failed);
  expect(unknown.err).toMatch(/no webhook no-such-request in the delivery log/);
});
