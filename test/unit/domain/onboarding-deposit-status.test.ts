/**
 * DepositStatusTracker (workflows/onboarding-funding.ts): the on_chain onboarding's progress
 * follows this customer's deposit from wallet_transaction_v2 webhooks, which arrive at least once
 * and in any order (provider-notes, Webhooks), and ignores other deposits to the shared address.
 */
import type { OnboardingProgress } from '../../../domain/customer-onboarding';
import type { WalletTransaction } from '../../../provider/schemas/wallet';
import type { ProviderEvent } from '../../../domain/provider-event';
import { cardOperationRecord, providerEvent, walletTransactionRecord } from '../../fixtures/provider-events';
import { DepositStatusTracker } from '../../../workflows/onboarding/funding';

const ADDRESS = 'TXk5sandboxAddress0001';
const SINCE = 1_700_000_000_000;

function progress(): OnboardingProgress {
  return {
    customerRef: 'c-1',
    stage: 'awaiting_payment',
    stages: [],
    funding: {
      source: 'on_chain',
      coinKey: 'USDT_TRC20',
      address: ADDRESS,
      expectedAmount: '120',
      depositStatus: 'awaiting',
    },
  };
}
function event(status: WalletTransaction['status'], extra: Partial<WalletTransaction> = {}): ProviderEvent {
  return providerEvent(
    'wallet_transaction_v2',
    walletTransactionRecord({
      orderNo: 'W1',
      type: 'DEPOSIT',
      destinationAddress: ADDRESS,
      createTime: SINCE + 1000,
      txAmount: '120',
      status,
      ...extra,
    }),
    `r-${status}`,
  );
}

it('moves the status forward with this customer’s deposit and never back', () => {
  const p = progress();
  const tracker = new DepositStatusTracker(p);
  tracker.watch({ address: ADDRESS, since: SINCE, expectedAmount: '120' });
  tracker.onEvent(event('wait_process'));
  expect(p.funding).toMatchObject({ depositStatus: 'wait_process', walletOrderNo: 'W1' });
  tracker.onEvent(event('success'));
  tracker.onEvent(event('processing')); // late, reordered delivery
  expect(p.funding?.depositStatus).toBe('success');
});

it('ignores other deposits to the shared address, older ones, withdrawals and events before it watches', () => {
  const p = progress();
  const tracker = new DepositStatusTracker(p);
  tracker.onEvent(event('processing'));
  expect(p.funding?.depositStatus).toBe('awaiting');
  tracker.watch({ address: ADDRESS, since: SINCE, expectedAmount: '120' });
  tracker.onEvent(event('processing', { txAmount: '75' }));
  tracker.onEvent(event('processing', { createTime: SINCE - 1 }));
  tracker.onEvent(event('processing', { type: 'WITHDRAW' }));
  tracker.onEvent(providerEvent('card_transaction', cardOperationRecord()));
  expect(p.funding?.depositStatus).toBe('awaiting');
});
