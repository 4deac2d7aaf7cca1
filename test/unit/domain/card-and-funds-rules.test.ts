/**
 * Pure rules of the lifecycle workflows: inputs refused before anything is sent, deposit sizing,
 * ledger and deposit matching.
 */
import fc from 'fast-check';
import { add, cmp, depositFee } from '../../../provider/money';
import { cardOperationInputIssues } from '../../../domain/card-operations';
import { isTransferEntry, transferIssues, transferRemark, type TransferAccount } from '../../../domain/fund-transfer';
import { activationInputIssues } from '../../../domain/physical-card-activation';
import { matchesDeposit, maxDepositFor } from '../../../domain/wallet-funding';

const paths = (issues: { path: string }[]) => issues.map((i) => i.path);

describe('activationInputIssues', () => {
  it('accepts a sealed PIN and a PIN-free amount within 0 to 2000', () => {
    expect(
      activationInputIssues({
        cardNo: 'C1',
        route: 'activation_code',
        sealedPin: 'bG9uZ2NpcGhlcnRleHQ=',
        noPinPaymentAmount: '2000',
      }),
    ).toEqual([]);
  });
  it('refuses a clear PIN without echoing it, and an out-of-range PIN-free amount', () => {
    const issues = activationInputIssues({
      cardNo: 'C1',
      route: 'activation_code',
      sealedPin: '123456',
      noPinPaymentAmount: '2000.01',
    });
    expect(paths(issues)).toEqual(['sealedPin', 'noPinPaymentAmount']);
    expect(issues.map((i) => i.message).join(' ')).not.toContain('123456');
  });
  it('work orders need files: ids, or store names with an accepted extension', () => {
    expect(paths(activationInputIssues({ cardNo: 'C1', route: 'work_order' }))).toEqual(['workOrder.files']);
    expect(
      paths(
        activationInputIssues({
          cardNo: 'C1',
          route: 'work_order',
          workOrder: { files: [{ ref: '../etc/passwd' }, { ref: 'note.exe' }, { fileId: 'F1' }] },
        }),
      ),
    ).toEqual(['workOrder.files.0.ref', 'workOrder.files.1.ref']);
    expect(
      activationInputIssues({ cardNo: 'C1', route: 'work_order', workOrder: { files: [{ ref: 'scan.PDF' }] } }),
    ).toEqual([]);
  });
});

describe('cardOperationInputIssues', () => {
  it('update PIN needs a sealed PIN; remarks are at most 50 characters', () => {
    expect(paths(cardOperationInputIssues('updatePin', { cardNo: 'C1' }))).toEqual(['sealedPin']);
    expect(paths(cardOperationInputIssues('updatePin', { cardNo: 'C1', sealedPin: '654321' }))).toEqual(['sealedPin']);
    expect(paths(cardOperationInputIssues('freeze', { cardNo: 'C1', clientRemark: 'x'.repeat(51) }))).toEqual([
      'clientRemark',
    ]);
    expect(cardOperationInputIssues('unfreeze', { cardNo: 'C1', clientRemark: 'x'.repeat(50) })).toEqual([]);
  });
});

describe('transferIssues', () => {
  const wallet: TransferAccount = { accountId: '1', accountType: 'WALLET', currency: 'USD', availableBalance: '100' };
  const margin: TransferAccount = { accountId: '2', accountType: 'MARGIN', currency: 'USD', availableBalance: '0' };
  it('TRANSFER goes WALLET → MARGIN and COLLECTION MARGIN → WALLET', () => {
    expect(transferIssues('TRANSFER', '10.50', wallet, margin, 2)).toEqual([]);
    expect(transferIssues('COLLECTION', '10.50', margin, wallet, 2)).toEqual([]);
    expect(paths(transferIssues('TRANSFER', '10.50', margin, wallet, 2))).toEqual(['payerAccountId', 'payeeAccountId']);
  });
  it('refuses zero, too many decimals, one account, another currency', () => {
    expect(paths(transferIssues('TRANSFER', '0', wallet, margin))).toEqual(['amount']);
    expect(paths(transferIssues('TRANSFER', '1.001', wallet, margin, 2))).toEqual(['amount']);
    expect(paths(transferIssues('TRANSFER', '1', wallet, { ...margin, currency: 'EUR' }))).toEqual(['payeeAccountId']);
  });
  it('finds its ledger entries by the merchantOrderNo at the head of the remark (or as orderNo)', () => {
    const key = 'CF0123456789abcdef0123456789abcd';
    expect(isTransferEntry({ orderNo: '99', remark: transferRemark(key, 'budget') }, key)).toBe(true);
    expect(isTransferEntry({ orderNo: key, remark: null }, key)).toBe(true);
    expect(isTransferEntry({ orderNo: '99', remark: `${key}X` }, key)).toBe(false);
    expect(isTransferEntry({ orderNo: '99', remark: `note ${key}` }, key)).toBe(false);
  });
});

describe('maxDepositFor', () => {
  const type = {
    rechargeFeeRate: '1',
    rechargeFixedFee: '0',
    rechargeDigital: 2,
    rechargeMinQuota: '5',
    rechargeMaxQuota: '10000',
  };
  it('the largest amount whose amount + fee fits', () => {
    expect(maxDepositFor('198', type)).toBe('196.03');
    expect(maxDepositFor('4', type)).toBeUndefined();
    expect(maxDepositFor('50000', type)).toBe('10000.00');
  });
  it('property: amount + fee never exceeds what is available, and one cent more would', () => {
    const withFixed = { ...type, rechargeFeeRate: '1.8', rechargeFixedFee: '0.30' };
    fc.assert(
      fc.property(fc.integer({ min: 600, max: 2_000_000 }), (cents) => {
        const available = (cents / 100).toFixed(2);
        const amount = maxDepositFor(available, withFixed);
        if (amount === undefined) return;
        const total = (a: string) => add(a, depositFee(a, withFixed.rechargeFeeRate, withFixed.rechargeFixedFee, 2));
        expect(cmp(total(amount), available)).toBeLessThanOrEqual(0);
        if (cmp(amount, withFixed.rechargeMaxQuota) < 0)
          expect(cmp(total(add(amount, '0.01')), available)).toBeGreaterThan(0);
      }),
    );
  });
});

describe('matchesDeposit', () => {
  const tx = { type: 'DEPOSIT', destinationAddress: 'Taddr', createTime: 2_000, txHash: 'h1', txAmount: '200.00' };
  it('our deposit: to the address, after the start, with the hash and amount when given', () => {
    expect(matchesDeposit(tx, { address: 'Taddr', since: 1_000 })).toBe(true);
    expect(matchesDeposit(tx, { address: 'Taddr', since: 1_000, expectedAmount: '200', txHash: 'h1' })).toBe(true);
    expect(matchesDeposit(tx, { address: 'Taddr', since: 3_000 })).toBe(false);
    expect(matchesDeposit(tx, { address: 'Tother', since: 1_000 })).toBe(false);
    expect(matchesDeposit(tx, { address: 'Taddr', since: 1_000, expectedAmount: '199.99' })).toBe(false);
    expect(matchesDeposit({ ...tx, type: 'WITHDRAW' }, { address: 'Taddr', since: 1_000 })).toBe(false);
  });
});
