/**
 * docs/other-languages.md's Python example verifies the worker's Standard Webhooks deliveries with
 * the `standardwebhooks` package from PyPI (tools/scripts/python-standardwebhooks.sh installs it),
 * run by python3 as the page shows it: a delivery signed by one secret, each secret of a rotation's
 * two signatures, and refusals of a changed body and of another secret.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NotificationTypes, type NotificationEvent } from '../../../../domain/notifications';
import { postNotification } from '../../../../platform/notifications/sender';
import { startNotificationBackend, type NotificationBackend } from '../../../support/notification-backend';

const root = path.join(__dirname, '../../../..');
const page = readFileSync(path.join(root, 'docs/other-languages.md'), 'utf8');
const example = /```python notification-verify\n([\s\S]*?)```/.exec(page)?.[1];
if (example === undefined) throw new Error('docs/other-languages.md has no ```python notification-verify block');

/**
 * Reads the cases (JSON on stdin) and prints, for each, the event id it verified or the refusal.
 */
const driver = `
import sys
cases = json.load(sys.stdin)
out = []
for case in cases:
    try:
        event = verify_notification(case["body"].encode("utf-8"), case["headers"], case["secrets"])
        out.append("ok:" + event["id"])
    except WebhookVerificationError as error:
        out.append("refused:" + str(error))
print(json.dumps(out))
`;

let backend: NotificationBackend;
beforeAll(async () => {
  backend = await startNotificationBackend();
});
afterAll(async () => backend?.close());

const whsec = () => `whsec_${randomBytes(32).toString('base64')}`;

const event = (n: number): NotificationEvent => ({
  id: `evt_python_${n}`,
  type: NotificationTypes.onboardingStageChanged,
  created: new Date().toISOString(),
  workflowId: `onboarding-py-${n}`,
  data: { customerRef: `py-${n}`, stage: 'cardholder_review', previousStage: 'validating' },
});

it('verifies the worker’s Standard Webhooks deliveries with the PyPI package, either secret during a rotation', async () => {
  const [oldSecret, newSecret] = [whsec(), whsec()];
  const send = (n: number, secrets: string[]) =>
    postNotification(
      { url: backend.url, secrets, format: 'standard-webhooks' },
      { id: event(n).id, body: JSON.stringify(event(n)) },
    );
  await send(1, [oldSecret]);
  await send(2, [newSecret, oldSecret]);
  const [one, two] = backend.received;
  const cases = [
    { body: one!.body, headers: one!.headers, secrets: [oldSecret] },
    { body: two!.body, headers: two!.headers, secrets: [oldSecret] },
    { body: two!.body, headers: two!.headers, secrets: [newSecret] },
    { body: two!.body, headers: two!.headers, secrets: [newSecret, oldSecret] },
    { body: one!.body.replace('py-1', 'py-9'), headers: one!.headers, secrets: [oldSecret] },
    { body: one!.body, headers: one!.headers, secrets: [newSecret] },
  ];

  const dir = mkdtempSync(path.join(tmpdir(), 'cardflow-python-verify-'));
  const script = path.join(dir, 'verify.py');
  writeFileSync(script, example + driver);
  const library = execFileSync('bash', [path.join(root, 'tools/scripts/python-standardwebhooks.sh')], {
    encoding: 'utf8',
  }).trim();
  const answer = execFileSync('python3', [script], {
    input: JSON.stringify(cases),
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: library },
  });
  expect(JSON.parse(answer)).toEqual([
    'ok:evt_python_1',
    'ok:evt_python_2',
    'ok:evt_python_2',
    'ok:evt_python_2',
    'refused:No matching signature found',
    'refused:No matching signature found',
  ]);
});
