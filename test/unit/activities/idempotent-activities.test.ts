/**
 * Activities under MockActivityEnvironment with a stubbed provider: after an ambiguous outcome
 * (timeout, duplicate-order answer) the order is looked up by merchantOrderNo and the existing
 * record returned; rejections become non-retryable ApplicationFailures with the provider's type.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { ApplicationFailure } from '@temporalio/common';
import { createActivities } from '../../../activities';
import type { ProviderPort } from '../../../activities/deps';
import {
  ProviderAbortedError,
  ProviderBusinessError,
  ProviderTimeoutError,
  ProviderValidationError,
} from '../../../provider/errors';
import { b2bHolder } from '../../fixtures/holders';

const ORDER = 'CF0123456789abcdef0123456789abcd';

const record = (status: string) => ({
  orderNo: 'P1',
  merchantOrderNo: ORDER,
  cardNo: 'C1',
  currency: 'USD',
  amount: '10',
  fee: '0.15',
  type: 'deposit' as const,
  status: status as 'success',
  transactionTime: 1,
});

function provider(overrides: Partial<Record<keyof ProviderPort, jest.Mock>>): ProviderPort {
  return {
    getAccountInfo: jest.fn().mockResolvedValue([
      {
        accountId: '1',
        accountName: 'w',
        accountType: 'WALLET',
        currency: 'USD',
        totalBalance: '1000',
        availableBalance: '1000',
        frozenBalance: '0',
        digital: 2,
      },
    ]),
    listCardTransactions: jest.fn().mockResolvedValue({ total: '0', records: [] }),
    ...overrides,
  } as unknown as ProviderPort;
}

const input = { merchantOrderNo: ORDER, cardNo: 'C1', amount: '10', required: { total: '10.15', currency: 'USD' } };

describe('depositCard', () => {
  it('returns the existing record when the send times out but the deposit went through', async () => {
    const p = provider({
      depositCard: jest.fn().mockRejectedValue(new ProviderTimeoutError(1000, { operation: 'depositCard' })),
      listCardTransactions: jest.fn().mockResolvedValue({ total: '1', records: [record('processing')] }),
    });
    const result = await new MockActivityEnvironment().run(createActivities({ provider: p }).depositCard, input);
    expect(result).toMatchObject({ merchantOrderNo: ORDER, status: 'processing', orderNo: 'P1' });
    expect(p.depositCard).toHaveBeenCalledTimes(1);
  });

  it('treats a duplicate-order answer as "already done" and returns the record', async () => {
    const p = provider({
      depositCard: jest
        .fn()
        .mockRejectedValue(new ProviderBusinessError({ code: 40003, msg: 'Duplicate order number' })),
      listCardTransactions: jest.fn().mockResolvedValue({ total: '1', records: [record('success')] }),
    });
    const result = await new MockActivityEnvironment().run(createActivities({ provider: p }).depositCard, input);
    expect((result as { status: string }).status).toBe('success');
  });

  it('on a retry looks the order up first and sends nothing when it exists', async () => {
    const p = provider({
      depositCard: jest.fn(),
      listCardTransactions: jest.fn().mockResolvedValue({ total: '1', records: [record('success')] }),
    });
    const env = new MockActivityEnvironment({ attempt: 2 });
    await env.run(createActivities({ provider: p }).depositCard, input);
    expect(p.depositCard).not.toHaveBeenCalled();
  });

  it('rethrows a timeout retryably when the lookup finds nothing (the retry sends the same key)', async () => {
    const p = provider({ depositCard: jest.fn().mockRejectedValue(new ProviderTimeoutError(1000)) });
    const error = await new MockActivityEnvironment()
      .run(createActivities({ provider: p }).depositCard, input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect(error).toMatchObject({ type: 'ProviderTimeoutError', nonRetryable: false });
  });

  it('fails retryably when the call was cut short by the activity being cancelled (a worker shutting down): the next attempt looks the order up first', async () => {
    const p = provider({ depositCard: jest.fn().mockRejectedValue(new ProviderAbortedError()) });
    const error = await new MockActivityEnvironment()
      .run(createActivities({ provider: p }).depositCard, input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect(error).toMatchObject({ type: 'ProviderAbortedError', nonRetryable: false });
  });

  it('refuses with a non-retryable InsufficientBalance before sending when the wallet cannot pay', async () => {
    const p = provider({ depositCard: jest.fn() });
    const error = await new MockActivityEnvironment()
      .run(createActivities({ provider: p }).depositCard, { ...input, required: { total: '1000.01', currency: 'USD' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      type: 'InsufficientBalance',
      nonRetryable: true,
      message: expect.stringMatching(/needs 1000.01 USD/),
    });
    expect(p.depositCard).not.toHaveBeenCalled();
  });

  it('turns business and validation rejections into non-retryable failures with the provider type', async () => {
    for (const rejection of [
      new ProviderBusinessError({ code: 40005, msg: 'card is frozen' }),
      new ProviderValidationError([{ path: 'amount', message: 'bad' }]),
    ]) {
      const p = provider({ depositCard: jest.fn().mockRejectedValue(rejection) });
      const error = await new MockActivityEnvironment()
        .run(createActivities({ provider: p }).depositCard, input)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ type: rejection.type, nonRetryable: true });
      expect(p.listCardTransactions).not.toHaveBeenCalled();
    }
  });
});

describe('depositCard and createCard read the card once the operation succeeded', () => {
  const cardInfo = {
    cardNo: 'C1',
    cardTypeId: '111',
    status: 'normal',
    blocked: false,
    balanceInfo: { amount: '10.00', currency: 'USD' },
  };

  it('answers with the card, read in the same attempt, so the workflow schedules no getCardSummary', async () => {
    const p = provider({
      depositCard: jest.fn().mockResolvedValue(record('success')),
      getCardInfo: jest.fn().mockResolvedValue(cardInfo),
    });
    const result = await new MockActivityEnvironment().run(createActivities({ provider: p }).depositCard, input);
    expect(result).toMatchObject({
      status: 'success',
      card: { cardNo: 'C1', status: 'normal', blocked: false, balance: { amount: '10.00', currency: 'USD' } },
    });
    expect(p.getCardInfo).toHaveBeenCalledTimes(1);
  });

  it('answers without the card when the read fails: the operation went through, the workflow reads it', async () => {
    const p = provider({
      createCard: jest.fn().mockResolvedValue({ ...record('success'), type: 'create' }),
      getCardInfo: jest.fn().mockRejectedValue(new ProviderTimeoutError(1000, { operation: 'getCardInfo' })),
    });
    const result = await new MockActivityEnvironment().run(createActivities({ provider: p }).createCard, {
      ...input,
      cardTypeId: '111',
    });
    expect(result).toMatchObject({ status: 'success', cardNo: 'C1' });
    expect(result).not.toHaveProperty('card');
  });

  it('reads nothing while the operation is still pending', async () => {
    const p = provider({
      depositCard: jest.fn().mockResolvedValue(record('processing')),
      getCardInfo: jest.fn(),
    });
    const result = await new MockActivityEnvironment().run(createActivities({ provider: p }).depositCard, input);
    expect(result).not.toHaveProperty('card');
    expect(p.getCardInfo).not.toHaveBeenCalled();
  });
});

describe('createCardholder', () => {
  it('after a duplicate-order answer returns the holder found by merchantOrderNo', async () => {
    const p = provider({
      createCardholder: jest
        .fn()
        .mockRejectedValue(new ProviderBusinessError({ code: 40003, msg: 'Duplicate order number' })),
      queryCardholders: jest.fn().mockResolvedValue({
        total: '1',
        records: [
          {
            holderId: '77',
            merchantOrderNo: ORDER,
            cardTypeId: '1',
            statusFlowLocation: 'admin',
            status: 'wait_audit',
            respMsg: null,
          },
        ],
      }),
    });
    const holder = b2bHolder('a@example.com');
    const result = await new MockActivityEnvironment().run(createActivities({ provider: p }).createCardholder, {
      merchantOrderNo: ORDER,
      cardTypeId: '1',
      holder,
    });
    expect(result).toEqual({
      holderId: '77',
      status: 'wait_audit',
      statusFlowLocation: 'admin',
      merchantOrderNo: ORDER,
    });
    expect(p.createCardholder).toHaveBeenCalledWith(
      expect.objectContaining({ merchantOrderNo: ORDER, cardHolderModel: 'B2B' }),
      expect.anything(),
    );
  });
});

describe('awaitCardOperation', () => {
  it('polls until the operation is final, heartbeating its progress before each further poll', async () => {
    const list = jest
      .fn()
      .mockResolvedValueOnce({ total: '1', records: [record('processing')] })
      .mockResolvedValueOnce({ total: '1', records: [record('success')] });
    const env = new MockActivityEnvironment();
    const beats: unknown[] = [];
    env.on('heartbeat', (d: unknown) => beats.push(d));
    const result = await env.run(
      createActivities({ provider: provider({ listCardTransactions: list }) }).awaitCardOperation,
      {
        merchantOrderNo: ORDER,
        poll: { firstPollMs: 1, maxPollMs: 5, backoff: 2, attemptMs: 10_000 },
      },
    );
    expect((result as { status: string }).status).toBe('success');
    // No heartbeat for the final poll: the completion says it all (a heartbeat is a billable
    // action).
    expect(beats).toEqual([{ delayMs: 1, polls: 1, lastState: 'processing' }]);
    expect(list).toHaveBeenCalledTimes(2);
  });

  it('with attemptMs below the poll interval, probes once per attempt and never heartbeats', async () => {
    const list = jest.fn().mockResolvedValue({ total: '1', records: [record('processing')] });
    const env = new MockActivityEnvironment({ attempt: 3 });
    const beats: unknown[] = [];
    env.on('heartbeat', (d: unknown) => beats.push(d));
    const error = await env
      .run(createActivities({ provider: provider({ listCardTransactions: list }) }).awaitCardOperation, {
        merchantOrderNo: ORDER,
        poll: { firstPollMs: 50, maxPollMs: 100, backoff: 2, attemptMs: 1 },
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'StillWaiting', nonRetryable: false });
    expect(list).toHaveBeenCalledTimes(1);
    expect(beats).toEqual([]);
  });

  it('ends an attempt with a benign, retryable StillWaiting after attemptMs', async () => {
    const list = jest.fn().mockResolvedValue({ total: '1', records: [record('processing')] });
    const error = await new MockActivityEnvironment()
      .run(createActivities({ provider: provider({ listCardTransactions: list }) }).awaitCardOperation, {
        merchantOrderNo: ORDER,
        poll: { firstPollMs: 1, maxPollMs: 5, backoff: 2, attemptMs: 20 },
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'StillWaiting', nonRetryable: false });
  });
});
