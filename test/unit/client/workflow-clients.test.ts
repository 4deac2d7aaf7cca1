/**
 * The lifecycle client functions validate (and seal) before contacting Temporal, derive their
 * workflow ids from business keys, and every lifecycle workflow type has a status view.
 */
import type { Client } from '@temporalio/client';
import { generateRsaKeyPair } from '../../../provider/keys';
import { decryptSensitive } from '../../../provider/sensitive';
import { activationInput, startActivation } from '../../../client/activation';
import { cardRequest, depositToCard, freezeCard } from '../../../client/card-entity';
import { cardOperationInput, startCardOperation } from '../../../client/card-operations';
import { describeCardSnapshot, describeTransferResult } from '../../../client/describe';
import { startSharedAccount, startTransfer, parseTransferRequest, startWalletFunding } from '../../../client';
import { InvalidInputError } from '../../../client/validation';
import { STATUS_VIEWS, type StatusView } from '../../../client/workflow-status';
import { WORKFLOWS, WorkflowTypes } from '../../../domain';
import { transferWorkflowId, fundingWorkflowId } from '../../../domain/workflow-ids';

const merchant = generateRsaKeyPair(1024);
/** A client any use of which fails the test: validation must refuse first. */
const untouchable = new Proxy(
  {},
  {
    get: () => {
      throw new Error('the client was contacted');
    },
  },
) as Client;

it.each([
  [
    'startTransfer',
    () =>
      startTransfer(untouchable, {
        transferRef: 't1',
        type: 'TRANSFER',
        amount: '-1',
        payerAccountId: '1',
        payeeAccountId: '2',
      }),
    /amount: /,
  ],
  [
    'startWalletFunding',
    // @ts-expect-error a JavaScript caller's number for a decimal string: refused at run time too
    () => startWalletFunding(untouchable, { fundingRef: 'f1', coinKey: 'USDT_TRC20', expectedAmount: 200 }),
    /expectedAmount: /,
  ],
  ['startSharedAccount', () => startSharedAccount(untouchable, { accountName: '' }), /accountName: is required/],
  [
    'startActivation',
    () => startActivation(untouchable, { cardNo: '5229', route: 'activation_code', sealedPin: '123456' }),
    /sealedPin: looks like a clear PIN/,
  ],
  [
    'startCardOperation',
    () => startCardOperation(untouchable, 'freeze', { cardNo: '5229', requestRef: 'r/1' }),
    /requestRef: /,
  ],
  ['freezeCard', () => freezeCard(untouchable, '5229', { requestId: '' }), /requestId: /],
  [
    'depositToCard',
    () => depositToCard(untouchable, '5229', { requestId: 'd1', amount: '10', cardTypeId: '' }),
    /cardTypeId: /,
  ],
])('%s refuses invalid input with InvalidInputError before contacting Temporal', async (_name, call, message) => {
  const error = await call().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InvalidInputError);
  expect((error as Error).message).toMatch(message);
});

it('business keys become workflow ids; one that cannot be part of an id is refused', () => {
  expect(transferWorkflowId('budget-2026-11')).toBe('transfer-budget-2026-11');
  expect(fundingWorkflowId('topup.1')).toBe('funding-topup.1');
  expect(() => transferWorkflowId('a b')).toThrow(/transferRef: must start with a letter or digit/);
});

it("a definition's request names its business key among its schema's fields", () => {
  const requested = Object.values(WORKFLOWS).filter((definition) => 'request' in definition);
  expect(requested.map((definition) => definition.type).sort()).toEqual([
    'fundTransfer',
    'physicalCardActivation',
    'sharedAccount',
    'walletFunding',
  ]);
  for (const { request } of requested) expect(Object.keys(request.schema.shape)).toContain(request.key);
});

it("payer ≠ payee, the transfer schema's own rule, is told on an otherwise valid request, after the fields' rules", () => {
  const problems = (request: unknown): readonly string[] => {
    try {
      parseTransferRequest(request);
      return [];
    } catch (error) {
      return (error as InvalidInputError).problems;
    }
  };
  const request = { transferRef: 't1', type: 'TRANSFER', amount: '10', payerAccountId: '1', payeeAccountId: '1' };
  expect(problems(request)).toEqual(['payeeAccountId: must differ from payerAccountId']);
  expect(problems({ ...request, amount: '-1' })).toEqual([expect.stringMatching(/^amount: /)]);
  expect(problems({ ...request, payeeAccountId: '2' })).toEqual([]);
});

it('a clear PIN is sealed into sealedPin and dropped, for the activation, the standalone PIN change and the card workflow', () => {
  const activation = activationInput(
    { cardNo: '5229', route: 'activation_code', pin: '482915' },
    merchant.publicKeyPem,
  );
  expect(activation).not.toHaveProperty('pin');
  expect(decryptSensitive(activation.sealedPin!, merchant.privateKey)).toBe('482915');
  const standalone = cardOperationInput(
    'updatePin',
    { cardNo: '5229', requestRef: 'p1', pin: '112233' },
    merchant.publicKeyPem,
  );
  expect(JSON.stringify(standalone)).not.toContain('112233');
  expect(decryptSensitive(standalone.input.sealedPin!, merchant.privateKey)).toBe('112233');
  const entity = cardRequest('updatePin', '5229', { requestId: 'p2', pin: '445566' }, () => merchant.publicKey);
  expect(JSON.stringify(entity)).not.toContain('445566');
  expect(decryptSensitive(entity.sealedPin, merchant.privateKey)).toBe('445566');
  expect(() => cardOperationInput('freeze', { cardNo: '5229', requestRef: 'f1', pin: '112233' })).toThrow(
    /pin: is only used by updatePin/,
  );
});

it('every lifecycle workflow type has a status view; results render amounts as decimal strings', () => {
  for (const type of Object.values(WorkflowTypes).filter(
    (t) => !['cardholderOnboarding', 'cardIssuance', 'cardDeposit'].includes(t),
  )) {
    expect(STATUS_VIEWS[type]).toBeDefined();
  }
  const leg = {
    accountId: '1',
    txId: '9',
    orderNo: 'o',
    direction: 'OUT' as const,
    amount: '10.01',
    beforeBalance: '100.00',
    afterBalance: '89.99',
  };
  expect(
    describeTransferResult({
      type: 'TRANSFER',
      merchantOrderNo: 'CF1',
      amount: '10.01',
      currency: 'USD',
      sent: false,
      payer: leg,
      payee: { ...leg, accountId: '2', direction: 'IN' },
    }),
  ).toBe(
    'TRANSFER 10.01 USD confirmed in the ledger (order CF1, sent by an earlier attempt)\naccount 1 OUT 10.01: 100.00 -> 89.99\naccount 2 IN 10.01: 100.00 -> 89.99',
  );
  expect(
    describeCardSnapshot({
      cardNo: '5229',
      status: 'Freeze',
      cancelled: false,
      pending: 1,
      authorizations: [],
      fees: [],
      authorizationCount: 1,
      run: 1,
      balance: { amount: '17.50', currency: 'USD' },
    }),
  ).toBe('card 5229: Freeze (balance 17.50 USD, 1 authorization, 1 operation pending)');
});

it("a workflow's own definition can say how its result reads; without one, status and result print as JSON", () => {
  expect(STATUS_VIEWS.referenceRefresh?.result({ lists: { Area: 3, Town: 12 }, fetchedAt: 1 })).toBe(
    'reference data refreshed: Area 3, Town 12',
  );
  // cardReissue: started by id, with neither a rendering here nor a `describe` of its own.
  const reissue = STATUS_VIEWS.cardReissue as StatusView;
  expect(reissue.query).toBe(WORKFLOWS.cardReissue.statusQuery);
  expect(reissue.line({ stage: 'issuing' })).toBe('{"stage":"issuing"}');
  expect(reissue.result({ cardNo: '1' })).toBe('{"cardNo":"1"}');
});
