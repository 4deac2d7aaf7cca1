/**
 * Shared accounts and transfers, wallet coins/addresses/deposits, the deprecated deposit order,
 * paging, uploads, reference data.
 */
import { SandboxErrorCode } from '../../../../tools/sandbox/contract';
import { createHarness, type Harness } from './harness';
import { orderNo, PNG } from './fixtures';

const walletOf = (h: Harness) => h.call('getAccountInfo', {}).find((a) => a.accountType === 'WALLET')!;

describe('accounts and transfers', () => {
  it('starts with a funded WALLET; TRANSFER and COLLECTION move money with a ledger entry on each side', () => {
    const h = createHarness();
    const wallet = walletOf(h);
    expect(wallet).toMatchObject({ accountType: 'WALLET', currency: 'USD', totalBalance: '100000.00', digital: 2 });
    const margin = h.call('createSharedAccount', { accountName: 'Marketing' });
    expect(margin).toMatchObject({ accountType: 'MARGIN', totalBalance: '0.00', accountName: 'Marketing' });

    const transferNo = orderNo();
    expect(
      h.call('transferFunds', {
        type: 'TRANSFER',
        merchantOrderNo: transferNo,
        amount: '1234.56',
        payerAccountId: wallet.accountId,
        payeeAccountId: margin.accountId,
      }),
    ).toBe(true);
    expect(h.call('getAccount', { accountId: margin.accountId }).availableBalance).toBe('1234.56');
    const entries = h.call('listLedgerEntries', { bizType: 'fund_transfer', pageNum: 1, pageSize: 10 }).records;
    expect(entries.map((e) => [e.accountId, e.direction, e.amount, e.beforeBalance, e.afterBalance]).sort()).toEqual(
      [
        [wallet.accountId, 'OUT', '1234.56', '100000.00', '98765.44'],
        [margin.accountId, 'IN', '1234.56', '0.00', '1234.56'],
      ].sort(),
    );

    h.call('transferFunds', {
      type: 'COLLECTION',
      merchantOrderNo: orderNo(),
      amount: '34.56',
      payerAccountId: margin.accountId,
      payeeAccountId: wallet.accountId,
    });
    expect(h.call('getAccount', { accountId: margin.accountId }).totalBalance).toBe('1200.00');
    expect(
      h.call('listLedgerEntries', { bizType: 'fund_collection', accountId: wallet.accountId, pageNum: 1, pageSize: 10 })
        .records[0],
    ).toMatchObject({ direction: 'IN', amount: '34.56' });
    expect(h.call('listAccounts', { type: 'MARGIN', pageNum: 1, pageSize: 10 }).total).toBe('1');
  });

  it('refuses a wrong direction, a short balance and too many decimals, naming the field', () => {
    const h = createHarness();
    const wallet = walletOf(h);
    const margin = h.call('createSharedAccount', { accountName: 'M' });
    const base = { merchantOrderNo: orderNo(), payerAccountId: wallet.accountId, payeeAccountId: margin.accountId };
    const wrong = h.refusal('transferFunds', { ...base, type: 'COLLECTION', amount: '1' });
    expect([wrong.code, wrong.message]).toEqual([
      40002,
      expect.stringMatching(/^payerAccountId: a COLLECTION is paid from a MARGIN account/),
    ]);
    const short = h.refusal('transferFunds', { ...base, type: 'TRANSFER', amount: '100000.01' });
    expect([short.code, short.message]).toEqual([
      SandboxErrorCode.insufficientBalance,
      expect.stringMatching(/^amount: insufficient/),
    ]);
    expect(h.refusal('transferFunds', { ...base, type: 'TRANSFER', amount: '1.001' }).message).toMatch(
      /^amount: must have at most 2 decimals/,
    );
    expect(h.refusal('getAccount', { accountId: '1' }).code).toBe(SandboxErrorCode.notFound);
    expect(walletOf(h).totalBalance).toBe('100000.00');
  });

  it('pages ledger entries with pageNum/pageSize and reports the total', async () => {
    const h = createHarness();
    for (let i = 0; i < 5; i++) await h.helper('creditMerchantWallet', { amount: `${i + 1}.00` });
    const page1 = h.call('listLedgerEntries', { bizType: 'fixed', pageNum: 1, pageSize: 2 });
    const page3 = h.call('listLedgerEntries', { bizType: 'fixed', pageNum: 3, pageSize: 2 });
    expect(page1.total).toBe('6'); // the opening balance is a fixed entry too
    expect(page1.records).toHaveLength(2);
    expect(page3.records).toHaveLength(2);
    expect(walletOf(h).totalBalance).toBe('100015.00');
  });
});

describe('wallet', () => {
  it('lists coins and creates addresses only for enabled coins', () => {
    const h = createHarness();
    const coins = h.call('listCoins', {});
    expect(coins.map((c) => [c.coinKey, c.enabled])).toEqual([
      ['USDT_TRC20', true],
      ['USDT_BEP20', true],
      ['USDC_ERC20', false],
    ]);
    const trc = h.call('createWalletAddress', { coinKey: 'USDT_TRC20' });
    expect(trc.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(h.call('createWalletAddress', { coinKey: 'USDT_BEP20' }).address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(h.refusal('createWalletAddress', { coinKey: 'USDC_ERC20' }).message).toMatch(/^coinKey: .*not enabled/);
    expect(h.call('listWalletAddresses', {})).toHaveLength(2);
  });

  it('confirms an on-chain deposit over the blocks and credits the received amount with ledger chain_deposit', async () => {
    const h = createHarness({ blockConfirmationMs: 3000 });
    const { address } = h.call('createWalletAddress', { coinKey: 'USDT_TRC20' });
    const tx = await h.helper('creditWalletDeposit', { address, amount: '1000' });
    const find = () =>
      h.call('listWalletTransactions', { orderNo: String(tx.orderNo), pageNum: 1, pageSize: 10 }).records[0]!;
    expect(find().status).toBe('wait_process');
    await h.clock.advance(3000);
    expect(find()).toMatchObject({ status: 'processing', destinationAddress: address });
    await h.clock.advance(3000 * 19);
    // fee 0.5% = 5.00, fixed 1.00
    expect(find()).toMatchObject({
      status: 'success',
      txAmount: '1000.00',
      fee: '5.00',
      fixedFee: '1.00',
      receivedAmount: '994.00',
      type: 'DEPOSIT',
    });
    expect(walletOf(h).totalBalance).toBe('100994.00');
    expect(
      h.call('listLedgerEntries', { bizType: 'chain_deposit', pageNum: 1, pageSize: 10 }).records[0],
    ).toMatchObject({ amount: '994.00', direction: 'IN' });
    const statuses = h.events.filter((e) => e.category === 'wallet_transaction_v2').map((e) => e.payload.status);
    expect(statuses).toEqual(['wait_process', 'processing', 'success']);
  });

  it('withdraws from the wallet: held, then taken with ledger chain_withdraw once confirmed', async () => {
    const h = createHarness({ blockConfirmationMs: 1000 });
    const tx = await h.helper('withdrawWallet', { amount: '200', toAddress: 'TDestination', coinKey: 'USDT_TRC20' });
    expect(walletOf(h)).toMatchObject({ availableBalance: '99800.00', frozenBalance: '200.00' });
    await h.clock.advance(20 * 1000);
    const done = h.call('listWalletTransactions', {
      orderNo: String(tx.orderNo),
      type: 'WITHDRAW',
      pageNum: 1,
      pageSize: 10,
    }).records[0]!;
    // fee 0.5% = 1.00, fixed 1.00: 198 arrive on chain.
    expect(done).toMatchObject({ status: 'success', receivedAmount: '198.00', destinationAddress: 'TDestination' });
    expect(walletOf(h)).toMatchObject({ totalBalance: '99800.00', frozenBalance: '0.00' });
    expect(
      h.call('listLedgerEntries', { bizType: 'chain_withdraw', pageNum: 1, pageSize: 10 }).records[0],
    ).toMatchObject({ amount: '200.00', direction: 'OUT' });
    await expect(h.helper('withdrawWallet', { amount: '1.00', toAddress: 'T1' })).rejects.toThrow(
      /^amount: must exceed the withdrawal fees/,
    );
  });

  it('matches a deprecated deposit order by its exact amount and fills its record', async () => {
    const h = createHarness();
    const order = h.call('walletDepositOrder', { amount: '100' });
    expect(order).toMatchObject({ userInputDepositAmount: '100.00', chain: 'TRC20', expireSecond: 1800 });
    expect(order.actualDepositAmount).toMatch(/^100\.00\d{2}$/);
    await h.helper('creditWalletDeposit', { address: order.toAddress, amount: order.actualDepositAmount });
    await h.settle();
    const record = h.call('walletDepositTransactions', { orderNo: order.orderNo, pageNum: 1, pageSize: 10 })
      .records[0]!;
    expect(record).toMatchObject({
      status: 'success',
      toAddress: order.toAddress,
      needDepositTxAmount: order.actualDepositAmount,
      type: 'chain_deposit',
    });

    const unpaid = h.call('walletDepositOrder', { amount: '5', chain: 'BEP20' });
    await h.clock.advance(1800 * 1000);
    expect(
      h.call('walletDepositTransactions', { orderNo: unpaid.orderNo, pageNum: 1, pageSize: 10 }).records[0]!.status,
    ).toBe('fail');
  });
});

describe('files and reference data', () => {
  it('stores an upload and returns a fileId; refuses other kinds', () => {
    const h = createHarness();
    expect(h.call('uploadFile', { category: 'card', file: PNG }, PNG).fileId).toMatch(/^F\d+$/);
    const exe = { filename: 'x.exe', contentType: 'application/octet-stream', data: new Uint8Array([1]) };
    expect(() => h.engine.handle('uploadFile', { category: 'card' }, exe)).toThrow(
      /^file.filename: extension must be one of jpg, png, pdf/,
    );
  });

  it('serves regions, cities (flat and two-level), area codes and occupations that the holder rules accept', () => {
    const h = createHarness();
    const regions = h.call('listRegions', {});
    expect(regions.length).toBeGreaterThanOrEqual(30);
    expect(regions.map((r) => r.code)).toEqual(
      expect.arrayContaining(['US', 'GB', 'HK', 'SG', 'DE', 'FR', 'JP', 'CN', 'RU', 'IR']),
    );
    const usCities = h.call('listCities', { regionCode: 'US' });
    expect(usCities.every((c) => c.country === 'US')).toBe(true);
    expect(usCities.map((c) => c.code)).toContain('US0102');
    const tree = h.call('listCityTree', { regionCode: 'GB' });
    expect(tree[0]).toMatchObject({ parentCode: '0', country: 'GB', countryStandardCode: 'GBR' });
    expect(tree[0]!.children![0]!.parentCode).toBe(tree[0]!.code);
    expect(h.call('listMobileAreaCodes', {}).find((m) => m.areaCode === 'HK')).toMatchObject({ code: '+852' });
    expect(h.call('listOccupations', {}).length).toBeGreaterThan(10);
    expect(h.call('listCardTypes', {}).length).toBeGreaterThanOrEqual(5);
  });
});
