/**
 * `cardflow activate-onboarding <customerRef> --file activation-code.json [--pin-stdin]`: refuses
 * bad usage and bad requests with exit 2 before anything is contacted, seals a clear PIN (from the
 * file or standard input) with the merchant public key, and never prints the PIN.
 */
import { generateRsaKeyPair } from '../../../../provider/keys';
import { USAGE } from '../../../../client/cli/main';
import { inputFiles } from '../../../support/input-files';
import { runOffline as run } from './cli-run';

const keys = generateRsaKeyPair(1024);
const PIN = '482915';
const { file } = inputFiles('cardflow-cli-activation-');

const withKey = { CARDFLOW_MERCHANT_PUBLIC_KEY: keys.publicKeyPem };

it('is listed in the usage', () => {
  expect(USAGE).toContain('cardflow activate-onboarding <customerRef> --file activation-code.json');
});

it.each([
  [['activate-onboarding'], /activate-onboarding needs a <customerRef>/],
  [['activate-onboarding', 'acme-1'], /activate-onboarding needs --file/],
  [['activate-onboarding', 'bad ref', '--file', 'x.json'], /customerRef: must start with a letter or digit/],
])('%j exits 2 naming what is missing, without connecting', async (args, message) => {
  const r = await run(args);
  expect(r).toMatchObject({ code: 2, connected: false });
  expect(r.err).toMatch(message);
});

it('refuses a request that breaks the rules, naming each field, before connecting', async () => {
  const r = await run(
    ['activate-onboarding', 'acme-1', '--file', file('bad.json', { route: 'work_order', workOrder: { files: [] } })],
    { env: withKey },
  );
  expect(r).toMatchObject({ code: 2, connected: false });
  expect(r.err).toMatch(/workOrder\.files/);
  expect(r.err).toMatch(/nothing was started/);
});

it('refuses a clear PIN that cannot be sealed (no merchant public key), before connecting', async () => {
  const r = await run(
    ['activate-onboarding', 'acme-1', '--file', file('code.json', { route: 'activation_code' }), '--pin-stdin'],
    { stdin: `${PIN}\n` },
  );
  expect(r).toMatchObject({ code: 2, connected: false });
  expect(r.err).toMatch(/CARDFLOW_MERCHANT_PUBLIC_KEY/);
  expect(r.err).not.toContain(PIN);
});

it('refuses a PIN on standard input that is not 6 digits', async () => {
  const r = await run(
    ['activate-onboarding', 'acme-1', '--file', file('code2.json', { route: 'activation_code' }), '--pin-stdin'],
    { env: withKey, stdin: '1234\n' },
  );
  expect(r).toMatchObject({ code: 2, connected: false });
  expect(r.err).toMatch(/exactly 6 digits/);
});

it.each([
  ['standard input', { route: 'activation_code', noPinPaymentAmount: '300' }, `${PIN}\n`],
  ['the file', { route: 'activation_code', pin: PIN }, undefined],
])(
  'a valid request with the PIN in %s is sealed and goes on to Temporal; the PIN is never printed',
  async (_where, request, stdin) => {
    const args = [
      'activate-onboarding',
      'acme-1',
      '--file',
      file(`ok-${String(stdin === undefined)}.json`, request),
      ...(stdin ? ['--pin-stdin'] : []),
    ];
    const r = await run(args, { env: withKey, ...(stdin ? { stdin } : {}) });
    expect(r.connected).toBe(true);
    expect(r.code).toBe(1); // the test's connection is refused
    expect(r.err).toMatch(/connection refused \(test\)/);
    expect(r.out + r.err).not.toContain(PIN);
  },
);
