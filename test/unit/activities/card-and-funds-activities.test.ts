/**
 * Lifecycle activities with MockActivityEnvironment and a stub provider: secrets opened only for
 * the call, name-keyed shared account.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { generateRsaKeyPair } from '../../../provider/keys';
import { ProviderTransportError } from '../../../provider/errors';
import { encryptSensitive } from '../../../provider/sensitive';
import type { ActivityDeps, ProviderPort } from '../../../activities/deps';
import { createActivationActivities, type ActivationOutcome } from '../../../activities/activation';
import { createTransferActivities } from '../../../activities/transfers';
import { sealPin } from '../../../activities/secrets';
import { openedAccount } from '../../../tools/sandbox/engine/ledger';

const merchant = generateRsaKeyPair();

function deps(provider: Partial<ProviderPort>): ActivityDeps {
  return { provider: provider as ProviderPort, merchantPrivateKey: merchant.privateKey };
}

const account = (accountId: string, accountName: string, accountType: 'WALLET' | 'MARGIN' = 'MARGIN') =>
  openedAccount(accountId, accountName, accountType);

it('activateWithCode opens the code and the PIN for the provider call only; the result carries neither', async () => {
  const sent: Record<string, unknown>[] = [];
  const provider: Partial<ProviderPort> = {
    listCard3dsRecords: (async () => ({
      total: '1',
      records: [
        {
          cardNo: 'C1',
          tradeNo: 'T1',
          currency: 'USD',
          amount: '0',
          merchantName: 'x',
          values: encryptSensitive('774411', merchant.publicKey),
          type: 'activation_code',
          transactionTime: 1,
          expirationTime: Date.now() + 60_000,
        },
      ],
    })) as never,
    activatePhysicalCard: (async (req: Record<string, unknown>) => {
      sent.push(req);
      return { merchantOrderNo: req.merchantOrderNo, cardNo: 'C1', type: 'card_activated', status: 'processing' };
    }) as never,
  };
  const activities = createActivationActivities(deps(provider));
  const result: ActivationOutcome = await new MockActivityEnvironment().run(activities.activateWithCode, {
    merchantOrderNo: 'CF00000000000000000000000000000a',
    cardNo: 'C1',
    sealedPin: sealPin('482915', merchant.publicKey),
    activationCodeTradeNo: 'T1',
  });
  expect(sent).toEqual([expect.objectContaining({ pin: '482915', activeCode: '774411' })]);
  expect(JSON.stringify(result)).not.toMatch(/482915|774411/);
  expect(result.status).toBe('processing');
});

it('activateWithCode on a retry finds the card already Normal and sends nothing', async () => {
  const activatePhysicalCard = jest.fn();
  const provider: Partial<ProviderPort> = {
    getCardInfo: (async () => ({ cardNo: 'C1', status: 'Normal' })) as never,
    activatePhysicalCard,
  };
  const env = new MockActivityEnvironment({ attempt: 2 });
  const result: ActivationOutcome = await env.run(createActivationActivities(deps(provider)).activateWithCode, {
    merchantOrderNo: 'CF00000000000000000000000000000b',
    cardNo: 'C1',
    sealedPin: sealPin('482915', merchant.publicKey),
    activationCodeTradeNo: 'T1',
  });
  expect(result.status).toBe('success');
  expect(activatePhysicalCard).not.toHaveBeenCalled();
});

it('ensureSharedAccount returns an existing MARGIN account of the name without creating', async () => {
  const createSharedAccount = jest.fn();
  const provider: Partial<ProviderPort> = {
    getAccountInfo: async () => [account('1', 'Merchant wallet', 'WALLET'), account('2', 'Pool')],
    createSharedAccount,
  };
  const result = await new MockActivityEnvironment().run(createTransferActivities(deps(provider)).ensureSharedAccount, {
    accountName: ' Pool ',
  });
  expect(result).toEqual({ accountId: '2', accountName: 'Pool', currency: 'USD', created: false });
  expect(createSharedAccount).not.toHaveBeenCalled();
});

it('ensureSharedAccount after a lost create answer finds the account instead of creating another', async () => {
  let accounts = [account('1', 'Merchant wallet', 'WALLET')];
  const createSharedAccount = jest.fn(async () => {
    accounts = [...accounts, account('3', 'Pool')];
    throw new ProviderTransportError('socket hang up', { operation: 'createSharedAccount' });
  });
  const provider: Partial<ProviderPort> = {
    getAccountInfo: async () => accounts,
    createSharedAccount: createSharedAccount as never,
  };
  const result = await new MockActivityEnvironment().run(createTransferActivities(deps(provider)).ensureSharedAccount, {
    accountName: 'Pool',
  });
  expect(result).toMatchObject({ accountId: '3', created: true });
  expect(createSharedAccount).toHaveBeenCalledTimes(1);
});
