/**
 * A rotation of the signing secret, by docs/notifications.md's steps, in the middle of a stream of
 * deliveries from two worker replicas to a backend that verifies each one as constructEvent does:
 * none is refused or lost. Each delivery made before the first worker took the new secret verifies
 * with the old one only; each made while a worker held both verifies with either one alone (the
 * Standard Webhooks ones by the `standardwebhooks` package too); each made after the switch
 * verifies with the new secret only. The workers' settings come from their variables, as a
 * restarted worker reads them.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { constructEvent, NotificationSignatureError } from '../../../../client/notifications';
import { NotificationTypes, type NotificationEvent } from '../../../../domain/notifications';
import { readConfiguration } from '../../../../platform/config/schema';
import type { NotificationFormat } from '../../../../platform/config/values/notify-format';
import { notificationSettings } from '../../../../platform/notifications/from-config';
import { postNotification, type NotificationTarget } from '../../../../platform/notifications/sender';
import { startNotificationBackend, type NotificationBackend } from '../../../support/notification-backend';

let backend: NotificationBackend;
beforeEach(async () => {
  backend = await startNotificationBackend();
});
afterEach(async () => backend?.close());

/** A fresh secret of the format: Standard Webhooks wants `whsec_` and base64 bytes. */
const secretFor = (format: NotificationFormat) =>
  format === 'standard-webhooks' ? `whsec_${randomBytes(32).toString('base64')}` : randomBytes(32).toString('hex');

/** A worker's notification target, read from its variables as at its start. */
function workerTarget(format: NotificationFormat, secret: string, previous?: string): NotificationTarget {
  const config = readConfiguration({
    CARDFLOW_NOTIFY_URL: backend.url,
    CARDFLOW_NOTIFY_FORMAT: format,
    CARDFLOW_NOTIFY_SECRET: secret,
    ...(previous ? { CARDFLOW_NOTIFY_PREVIOUS_SECRET: previous } : {}),
  });
  return notificationSettings(config)!.target;
}

type Phase = 'before' | 'during' | 'after';

const eventNo = (n: number): NotificationEvent => ({
  id: `evt_rotation_${n}`,
  type: NotificationTypes.onboardingStageChanged,
  created: new Date().toISOString(),
  workflowId: `onboarding-rot-${n}`,
  data: { customerRef: `rot-${n}`, stage: 'cardholder_review', previousStage: 'validating' },
});

const verifies = (format: NotificationFormat, body: string, headers: Record<string, string>, secret: string) => {
  try {
    constructEvent(body, headers, secret);
  } catch (error) {
    if (error instanceof NotificationSignatureError && error.reason === 'mismatch') return false;
    throw error;
  }
  // The specification's own library agrees, secret by secret.
  if (format === 'standard-webhooks') new Webhook(secret).verify(body, headers);
  return true;
};

describe.each<NotificationFormat>(['cardflow', 'standard-webhooks'])('rotating the %s signing secret', (format) => {
  it('loses no delivery of a stream, each verified by the new secret after the switch and by either during it', async () => {
    const [oldSecret, newSecret] = [secretFor(format), secretFor(format)];
    backend.verifyWith([oldSecret]);
    const workers = [workerTarget(format, oldSecret), workerTarget(format, oldSecret)];
    /** Which secrets each worker signs with now: the phase its deliveries belong to. */
    const phaseOf: Phase[] = ['before', 'before'];
    const sent = new Map<string, Phase>();
    let n = 0;
    // A batch of the stream: ten deliveries at once, alternating between the two replicas.
    const stream = async () => {
      await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const event = eventNo(++n);
          sent.set(event.id, phaseOf[i % 2]!);
          await postNotification(workers[i % 2]!, { id: event.id, body: JSON.stringify(event) });
        }),
      );
    };
    await stream();
    // 1. Each worker restarts in turn with the new secret, the old one as the previous.
    workers[0] = workerTarget(format, newSecret, oldSecret);
    phaseOf[0] = 'during';
    await stream();
    workers[1] = workerTarget(format, newSecret, oldSecret);
    phaseOf[1] = 'during';
    await stream();
    // 2. The backend takes the new secret (here dropping the old one at once).
    backend.verifyWith([newSecret]);
    await stream();
    // 3. Each worker restarts in turn without the previous secret.
    workers[0] = workerTarget(format, newSecret);
    phaseOf[0] = 'after';
    await stream();
    workers[1] = workerTarget(format, newSecret);
    phaseOf[1] = 'after';
    await stream();

    // None lost: every delivery taken at its first attempt, each event once.
    expect(backend.received.filter((r) => r.status !== 200).map((r) => r.refused)).toEqual([]);
    const ids = backend.received.map((r) => (JSON.parse(r.body) as NotificationEvent).id);
    expect(ids.sort()).toEqual([...sent.keys()].sort());
    const counts = { before: 0, during: 0, after: 0 };
    for (const r of backend.received) {
      const phase = sent.get((JSON.parse(r.body) as NotificationEvent).id)!;
      counts[phase] += 1;
      const byOld = verifies(format, r.body, r.headers, oldSecret);
      const byNew = verifies(format, r.body, r.headers, newSecret);
      expect({ phase, byOld, byNew }).toEqual({ phase, byOld: phase !== 'after', byNew: phase !== 'before' });
    }
    expect(counts).toEqual({ before: 15, during: 30, after: 15 });
  });
});

it('refuses a previous secret equal to the current one, and a Standard Webhooks secret that is not whsec_', () => {
  const secret = randomBytes(32).toString('hex');
  const config = (env: Record<string, string>) =>
    readConfiguration({ CARDFLOW_NOTIFY_URL: 'http://127.0.0.1:3000/events', ...env });
  expect(() =>
    notificationSettings(config({ CARDFLOW_NOTIFY_SECRET: secret, CARDFLOW_NOTIFY_PREVIOUS_SECRET: secret })),
  ).toThrow(/^CARDFLOW_NOTIFY_PREVIOUS_SECRET: the same secret as CARDFLOW_NOTIFY_SECRET/);
  expect(() =>
    notificationSettings(config({ CARDFLOW_NOTIFY_SECRET: secret, CARDFLOW_NOTIFY_FORMAT: 'standard-webhooks' })),
  ).toThrow(/^CARDFLOW_NOTIFY_SECRET: with CARDFLOW_NOTIFY_FORMAT=standard-webhooks, must be whsec_/);
});
