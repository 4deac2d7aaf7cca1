/**
 * `cardflow listen --forward-to <url>`: it receives notifications on a local port, forwards body
 * and signature unchanged to the backend (which verifies them with constructEvent), answers the
 * sender with 200 only when the backend took it (502 otherwise, so the worker retries), and with
 * the secret set refuses a tampered notification without forwarding it.
 */
import { runCli } from '../../../client/cli/main';
import { NotificationTypes, type NotificationEvent } from '../../../domain/notifications';
import { postNotification } from '../../../platform/notifications/sender';
import { SIGNATURE_HEADER, signatureHeader } from '../../../platform/notifications/signature';
import { startNotificationBackend, type NotificationBackend } from '../../support/notification-backend';

const SECRET = 'listen-test-secret-0123456789abcdef0123456';

const event: NotificationEvent = {
  id: 'evt_listen_1',
  type: NotificationTypes.onboardingStageChanged,
  created: new Date().toISOString(),
  workflowId: 'onboarding-acme-1',
  data: { customerRef: 'acme-1', stage: 'cardholder_review', previousStage: 'validating' },
};

let backend: NotificationBackend;
beforeAll(async () => {
  backend = await startNotificationBackend();
});
afterAll(async () => backend?.close());

it('forwards signed notifications unchanged, passes the backend failure back, refuses a tampered one', async () => {
  const abort = new AbortController();
  const out: string[] = [];
  const err: string[] = [];
  const running = runCli(['listen', '--forward-to', backend.url, '--port', '0'], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: { CARDFLOW_NOTIFY_SECRET: SECRET },
    signal: abort.signal,
  });
  while (!out.some((l) => l.startsWith('Ready'))) await new Promise((r) => setTimeout(r, 20));
  const url = /listening at (\S+),/.exec(out[0]!)![1]!;

  const body = JSON.stringify(event);
  await postNotification({ url, secrets: [SECRET], format: 'cardflow' }, { id: event.id, body });
  expect(backend.delivered(SECRET)).toEqual([event]);

  backend.failNext(1);
  await expect(
    postNotification({ url, secrets: [SECRET], format: 'cardflow' }, { id: event.id, body }),
  ).rejects.toMatchObject({ status: 502 });

  const tampered = await fetch(url, {
    method: 'POST',
    headers: { [SIGNATURE_HEADER]: signatureHeader(SECRET, Math.floor(Date.now() / 1000), body) },
    body: body.replace('acme-1', 'acme-2'),
  });
  expect(tampered.status).toBe(400);
  expect(await tampered.text()).toBe('mismatch');
  expect(backend.received).toHaveLength(2);
  expect(out.join('\n')).toMatch(/onboarding\.stage_changed evt_listen_1 {2}refused: the signature does not match/);

  abort.abort();
  expect(await running).toBe(0);
  expect(err).toEqual([]);
});

it('needs --forward-to', async () => {
  const err: string[] = [];
  const code = await runCli(['listen'], { out: () => undefined, err: (l) => err.push(l), env: {} });
  expect(code).toBe(2);
  expect(err.join('\n')).toMatch(/--forward-to: required/);
});
