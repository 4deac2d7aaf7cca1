/**
 * The lifecycle commands of `cardflow` refuse bad usage and bad input with exit 2, naming the
 * field and rule (never the value), before anything is contacted; valid input goes on to connect.
 */
import { loadDataConverter } from '@temporalio/common/lib/internal-non-workflow';
import { generateRsaKeyPair } from '../../../../provider/keys';
import { runCli, USAGE } from '../../../../client/cli/main';
import { inputFiles } from '../../../support/input-files';
import { runOffline as run } from './cli-run';
import { CARD_TYPE_IDS } from '../../../../tools/sandbox/data/card-types';

const keys = generateRsaKeyPair(1024);
const { file, pathOf } = inputFiles('cardflow-cli-unit-');

const transfer = {
  transferRef: 'budget-1',
  type: 'TRANSFER',
  amount: '10.50',
  payerAccountId: '1001',
  payeeAccountId: '2002',
};

describe('usage', () => {
  it('--help lists every lifecycle command and exits 0', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    for (const command of [
      'activate --file',
      'transfer --file',
      'shared-account --file',
      'fund-wallet --file',
      'card freeze|unfreeze',
      'card pin',
      'card deposit',
      'card status',
      'status <workflowId>',
      'onboard --file',
    ]) {
      expect(USAGE).toContain(`cardflow ${command}`);
    }
    expect(r.out).toBe(USAGE);
  });

  it.each([
    [['transfer'], /transfer needs --file/],
    [['activate'], /activate needs --file/],
    [['fund-wallet'], /fund-wallet needs --file/],
    [['shared-account'], /shared-account needs --file/],
    [['card'], /card needs one of freeze, unfreeze, pin, deposit, status/],
    [['card', 'explode', '5229'], /card needs one of/],
    [['card', 'toString', '5229'], /card needs one of/],
    [['card', 'freeze'], /card freeze needs a <cardNo>/],
    [['card', 'freeze', '5229'], /card freeze needs --request <id>/],
    [
      ['card', 'deposit', '5229', '--request', 'd1', '--amount', '5'],
      /card deposit needs --amount <decimal> and --card-type <id>/,
    ],
    [['card', 'pin', '5229', '--request', 'p1'], /card pin needs --pin-stdin/],
    [['status'], /status needs a <workflowId>/],
    [['transfer', '--file', 'x.json', '--bogus'], /^transfer does not take --bogus\nusage: cardflow transfer --file/],
  ])('%j is bad usage: exit 2, nothing contacted', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.connected).toBe(false);
  });

  it('a missing or non-JSON file is bad usage', async () => {
    expect((await run(['transfer', '--file', pathOf('absent.json')])).err).toMatch(
      /cannot read .*absent\.json \(ENOENT\)/,
    );
    const r = await run(['transfer', '--file', file('broken.json', '{"type": ')]);
    expect(r).toMatchObject({ code: 2, connected: false });
    expect(r.err).toMatch(/broken\.json is not JSON/);
  });
});

describe('input validation before connecting', () => {
  it('a transfer file with a number amount, a bad account id and an unknown type names each field and rule, never the values', async () => {
    const r = await run([
      'transfer',
      '--file',
      file('t1.json', { ...transfer, type: 'SEND', amount: 10.5, payerAccountId: 'acct-XYZZY' }),
    ]);
    expect(r).toMatchObject({ code: 2, connected: false });
    expect(r.err).toContain('type: must be one of TRANSFER, COLLECTION');
    expect(r.err).toContain('amount: must be a decimal string such as "10.50" (not a number)');
    expect(r.err).toContain('payerAccountId: must be an id of digits');
    expect(r.err).toContain('nothing was started');
    expect(r.err).not.toContain('XYZZY');
  });

  it('a transfer to the paying account itself, a zero amount or a transferRef that cannot be a workflow id are refused', async () => {
    const same = await run([
      'transfer',
      '--file',
      file('t2.json', { ...transfer, payeeAccountId: transfer.payerAccountId }),
    ]);
    expect(same.err).toContain('payeeAccountId: must differ from payerAccountId');
    const zero = await run(['transfer', '--file', file('t3.json', { ...transfer, amount: '0.00' })]);
    expect(zero.err).toContain('amount: must be greater than 0');
    const badRef = await run(['transfer', '--file', file('t4.json', { ...transfer, transferRef: 'a/b' })]);
    expect(badRef.err).toMatch(/transferRef: must start with a letter or digit/);
    for (const r of [same, zero, badRef]) expect(r).toMatchObject({ code: 2, connected: false });
  });

  it('a valid transfer file passes validation and goes on to connect (exit 1 when Temporal is unreachable)', async () => {
    const r = await run(['transfer', '--file', file('t5.json', transfer)]);
    expect(r.connected).toBe(true);
    expect(r.code).toBe(1);
    expect(r.err).toContain('connection refused (test)');
  });

  it('activate: a clear PIN needs the merchant public key, and is refused without echoing it', async () => {
    const f = file('a1.json', { cardNo: '5229810000000001', route: 'activation_code', pin: '482915' });
    const noKey = await run(['activate', '--file', f]);
    expect(noKey).toMatchObject({ code: 2, connected: false });
    expect(noKey.err).toMatch(
      /CARDFLOW_MERCHANT_PUBLIC_KEY or CARDFLOW_MERCHANT_PUBLIC_KEY_FILE is required to seal a PIN/,
    );
    expect(noKey.err).not.toContain('482915');
    const short = await run(
      ['activate', '--file', file('a2.json', { cardNo: '5229810000000001', route: 'activation_code', pin: '4829' })],
      { env: { CARDFLOW_MERCHANT_PUBLIC_KEY: keys.publicKeyPem } },
    );
    expect(short).toMatchObject({ code: 2, connected: false });
    expect(short.err).toContain('pin: must be exactly 6 digits');
    expect(short.err).not.toContain('4829');
    const sealed = await run(['activate', '--file', f], { env: { CARDFLOW_MERCHANT_PUBLIC_KEY: keys.publicKeyPem } });
    expect(sealed.connected).toBe(true);
  });

  it('activate: every rule is reported at once, before the merchant key is looked up', async () => {
    const r = await run([
      'activate',
      '--file',
      file('a8.json', { cardNo: '5229810000000001', route: 'activation_code', pin: '12', noPinPaymentAmount: '2001' }),
    ]);
    expect(r).toMatchObject({ code: 2, connected: false });
    expect(r.err).toContain('pin: must be exactly 6 digits');
    expect(r.err).toContain('noPinPaymentAmount: must be between 0 and 2000');
    expect(r.err).not.toMatch(/CARDFLOW_MERCHANT_PUBLIC_KEY/);
  });

  it('activate: rules of both routes (spec: activeCard, Work orders)', async () => {
    const noPin = await run([
      'activate',
      '--file',
      file('a3.json', { cardNo: '5229810000000001', route: 'activation_code', noPinPaymentAmount: '2500' }),
    ]);
    expect(noPin.err).toMatch(/sealedPin: is required for the activation_code route/);
    expect(noPin.err).toMatch(/noPinPaymentAmount: must be between 0 and 2000/);
    const workOrder = await run([
      'activate',
      '--file',
      file('a4.json', {
        cardNo: '5229810000000001',
        route: 'work_order',
        workOrder: { files: [{ ref: 'notes.txt' }] },
      }),
    ]);
    expect(workOrder.err).toMatch(/workOrder\.files\.0\.ref: must end in one of \.jpg/);
    const pinOnWorkOrder = await run([
      'activate',
      '--file',
      file('a5.json', {
        cardNo: '5229810000000001',
        route: 'work_order',
        pin: '123456',
        workOrder: { files: [{ fileId: 'f1' }] },
      }),
    ]);
    expect(pinOnWorkOrder.err).toMatch(/pin: is only used by the activation_code route/);
    for (const r of [noPin, workOrder, pinOnWorkOrder]) expect(r).toMatchObject({ code: 2, connected: false });
  });

  it('activate --pin-stdin takes the PIN from standard input, once', async () => {
    const f = file('a6.json', { cardNo: '5229810000000001', route: 'activation_code' });
    const env = { CARDFLOW_MERCHANT_PUBLIC_KEY: keys.publicKeyPem };
    const bad = await run(['activate', '--file', f, '--pin-stdin'], { env, stdin: '12345x\n' });
    expect(bad).toMatchObject({ code: 2, connected: false });
    expect(bad.err).not.toContain('12345x');
    const twice = await run(
      [
        'activate',
        '--file',
        file('a7.json', { cardNo: '5229810000000001', route: 'activation_code', pin: '123456' }),
        '--pin-stdin',
      ],
      { env, stdin: '123456\n' },
    );
    expect(twice.err).toMatch(/give it once/);
    const good = await run(['activate', '--file', f, '--pin-stdin'], { env, stdin: '864202\n' });
    expect(good.connected).toBe(true);
  });

  it('fund-wallet and shared-account files are checked against their schemas', async () => {
    const funding = await run([
      'fund-wallet',
      '--file',
      file('f1.json', {
        fundingRef: 'topup-1',
        coinKey: 'USDT TRC20',
        cardDeposit: { cardNo: '5229', cardTypeId: 'visa' },
      }),
    ]);
    expect(funding).toMatchObject({ code: 2, connected: false });
    expect(funding.err).toContain('coinKey: must be a coin key such as USDT_TRC20');
    expect(funding.err).toContain('cardDeposit.cardTypeId: must be an id of digits');
    const account = await run(['shared-account', '--file', file('s1.json', { accountName: 'a/b' })]);
    expect(account).toMatchObject({ code: 2, connected: false });
    expect(account.err).toMatch(/accountName: must start with a letter or digit/);
  });

  it('card commands check the request id, amount, card type, remark and PIN before connecting', async () => {
    const badId = await run(['card', 'freeze', '5229', '--request', 'no spaces']);
    expect(badId.err).toMatch(/requestId: must be 1 to 64 letters/);
    const remark = await run(['card', 'unfreeze', '5229', '--request', 'u1', '--remark', 'x'.repeat(51)]);
    expect(remark.err).toMatch(/clientRemark: length must be at most 50 characters/);
    const amount = await run([
      'card',
      'deposit',
      '5229',
      '--request',
      'd1',
      '--amount',
      '1e3',
      '--card-type',
      CARD_TYPE_IDS.subscription,
    ]);
    expect(amount.err).toMatch(/amount: must be a decimal string/);
    const cardType = await run(['card', 'deposit', '5229', '--request', 'd1', '--amount', '10', '--card-type', 'visa']);
    expect(cardType.err).toMatch(/cardTypeId: must be an id of digits/);
    const cardNo = await run(['card', 'status', '52-29']);
    expect(cardNo.err).toMatch(/cardNo: must be a card number/);
    const pin = await run(['card', 'pin', '5229', '--request', 'p1', '--pin-stdin'], { stdin: '99' });
    expect(pin.err).toMatch(/exactly 6 digits/);
    for (const r of [badId, remark, amount, cardType, cardNo, pin])
      expect(r).toMatchObject({ code: 2, connected: false });
    const good = await run(['card', 'pin', '5229', '--request', 'p1', '--pin-stdin'], {
      stdin: '907153\n',
      env: { CARDFLOW_MERCHANT_PUBLIC_KEY: keys.publicKeyPem },
    });
    expect(good.connected).toBe(true);
  });
});

describe('task queue', () => {
  /** A client whose start records the options and stops there. */
  function recordingConnect(seen: string[]) {
    const client = {
      // What startOnce measures the input with (client/payload-size.ts).
      options: { loadedDataConverter: loadDataConverter({}) },
      workflow: {
        start: async (_type: string, options: { taskQueue: string }) => {
          seen.push(options.taskQueue);
          throw new Error('recorded');
        },
      },
    };
    return async () => ({ client: client as never, namespace: 'default', close: async () => undefined });
  }

  it.each([
    [[], {}, 'cardflow'],
    [[], { CARDFLOW_TASK_QUEUE: 'cardflow-eu' }, 'cardflow-eu'],
    [['--task-queue', 'mine'], { CARDFLOW_TASK_QUEUE: 'cardflow-eu' }, 'mine'],
  ])('args %j with env %j start on %s', async (extra, env, expected) => {
    const seen: string[] = [];
    const code = await runCli(['transfer', '--file', file('tq.json', transfer), ...extra], {
      out: () => undefined,
      err: () => undefined,
      env,
      connect: recordingConnect(seen),
    });
    expect(code).toBe(1);
    expect(seen).toEqual([expected]);
  });
});
