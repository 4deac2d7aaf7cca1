/**
 * Every one of the 46 operations answers through the engine with data the client's schemas accept,
 * and every event payload parses with the schema of its query record.
 */
import { operations } from '../../../../provider/operations';
import { CardOperationRecordSchema } from '../../../../provider/schemas/card';
import * as cardRecords from '../../../../provider/schemas/card-records';
import { CardholderQueryRecordSchema } from '../../../../provider/schemas/cardholder';
import { WalletTransactionSchema } from '../../../../provider/schemas/wallet';
import { WorkOrderSchema } from '../../../../provider/schemas/work-order';
import { ENGINE_OPERATIONS } from '../../../../tools/sandbox/engine';
import { luhnCheckDigit } from '../../../../tools/sandbox/random';
import { createHarness, wire, type OpName } from './harness';
import { approvedB2bHolder, b2bHolder, b2cHolder, orderNo, PNG, TYPES } from './fixtures';

describe('every operation', () => {
  it('is handled by the engine', () => {
    expect([...ENGINE_OPERATIONS].sort()).toEqual(Object.keys(operations).sort());
    expect(ENGINE_OPERATIONS).toHaveLength(46);
  });

  it('answers data that parses with its record schema, and events that parse too', async () => {
    const h = createHarness();
    const called = new Set<OpName>();
    const call: typeof h.call = (name, params, file) => {
      called.add(name);
      return h.call(name, params, file);
    };
    const page = { pageNum: 1, pageSize: 10 };

    // Reference data, card types, files.
    call('listRegions', {});
    call('listCities', { regionCode: 'HK' });
    call('listCityTree', {});
    call('listMobileAreaCodes', {});
    call('listOccupations', {});
    call('listCardTypes', {});
    call('uploadFile', { category: 'card', file: PNG }, PNG);

    // Accounts.
    const wallet = call('getAccountInfo', {})[0]!;
    const margin = call('createSharedAccount', { accountName: 'Ops' });
    call('getAccount', { accountId: wallet.accountId });
    call('listAccounts', page);
    call('transferFunds', {
      type: 'TRANSFER',
      merchantOrderNo: orderNo(),
      amount: '10',
      payerAccountId: wallet.accountId,
      payeeAccountId: margin.accountId,
    });
    call('listLedgerEntries', page);

    // Wallet.
    call('listCoins', {});
    const address = call('createWalletAddress', { coinKey: 'USDT_TRC20' });
    call('listWalletAddresses', {});
    const order = call('walletDepositOrder', { amount: '50' });
    await h.helper('creditWalletDeposit', { address: address.address, amount: order.actualDepositAmount });
    await h.settle();
    call('listWalletTransactions', page);
    call('walletDepositTransactions', page);

    // Cardholders.
    const { cardHolderModel: _m, ...v1 } = b2bHolder('v1ops@example.com');
    const rejected = call('createCardholderV1', { ...v1, nationality: 'US', email: 'reject.admin@example.com' });
    await h.settle();
    const { merchantOrderNo: _o, cardTypeId: _t, ...v1Update } = { ...v1, nationality: 'US' };
    call('updateCardholderV1', { ...v1Update, holderId: rejected.holderId, email: 'reject.admin+2@example.com' });
    await h.settle();
    const { merchantOrderNo: _o2, cardTypeId: _t2, ...v2Update } = b2bHolder('fixed.ops@example.com');
    call('updateCardholder', { ...v2Update, holderId: rejected.holderId });
    const idvFields = {
      areaCode: '+1',
      mobile: '4155550199',
      email: 'reject.channel@example.com',
      firstName: 'Idv',
      lastName: 'Person',
      annualSalary: '50000 USD',
      accountPurpose: 'Ads',
      expectedMonthlyVolume: '1000 USD',
      idvShareToken: 'tok',
      ipAddress: '192.0.2.1',
    };
    const idv = call('createCardholderIdv', { merchantOrderNo: orderNo(), cardTypeId: TYPES.b2bVirtual, ...idvFields });
    await h.settle();
    call('updateCardholderIdv', { holderId: idv.holderId, ...idvFields, email: 'idv.fixed@example.com' });
    const holderId = await approvedB2bHolder(h, 'ops@example.com');
    call('createCardholder', b2bHolder('ops2@example.com'));
    call('queryCardholders', page);

    // Cards.
    const card = call('createCard', {
      merchantOrderNo: orderNo(),
      holderId,
      cardTypeId: TYPES.b2bVirtual,
      amount: '100',
    });
    call('openCard', { merchantOrderNo: orderNo(), cardTypeId: TYPES.subscription });
    await h.settle();
    const cardNo = card.cardNo;
    call('getCardInfo', { cardNo, onlySimpleInfo: false });
    call('getCardSensitiveData', { cardNo });
    call('getCardBalance', { cardNo });
    call('depositCard', { cardNo, merchantOrderNo: orderNo(), amount: '20' });
    call('freezeCard', { cardNo, merchantOrderNo: orderNo() });
    await h.settle();
    call('unfreezeCardV1', { cardNo });
    await h.settle();
    call('freezeCardV1', { cardNo });
    await h.settle();
    call('unfreezeCard', { cardNo, merchantOrderNo: orderNo() });
    await h.settle();
    await h.helper('authorizeCard', { cardNo, type: 'auth', amount: '100', merchantCountry: 'DE' });
    await h.helper('issue3ds', { cardNo, type: 'third_3ds_otp', amount: '5' });
    await h.settle();

    // Physical card: PIN and activation.
    const { holderId: b2c } = call('createCardholder', b2cHolder(h, 'b2c.ops@example.com'));
    await h.settle();
    const physical = call('createCard', {
      merchantOrderNo: orderNo(),
      holderId: b2c,
      cardTypeId: TYPES.physicalB2C,
      amount: '50',
      cardNumber: `522981000000000${luhnCheckDigit('522981000000000')}`,
    });
    await h.settle();
    const code = await h.helper('issueActivationCode', { cardNo: physical.cardNo });
    call('activatePhysicalCard', {
      merchantOrderNo: orderNo(),
      cardNo: physical.cardNo,
      pin: '123456',
      activeCode: String(code.activationCode),
    });
    await h.settle();
    call('updatePin', { cardNo: physical.cardNo, merchantOrderNo: orderNo(), pin: '999999' });
    await h.settle();

    // Records and work orders.
    call('listCardPurchases', page);
    call('listCardTransactionsV1', { ...page, type: 'create' });
    call('listCardTransactions', page);
    call('listCardAuthTransactions', page);
    call('listCardAuthFees', { ...page, cardTypeId: TYPES.b2bVirtual });
    call('listCard3dsRecords', page);
    call('submitWorkOrder', {
      merchantOrderNo: orderNo(),
      title: 'Help',
      target: cardNo,
      tradeType: 'OTHER',
      files: [],
    });
    call('listWorkOrders', { pageSize: 10 });

    expect([...called].sort()).toEqual(Object.keys(operations).sort());

    const schemas = {
      card_transaction: CardOperationRecordSchema,
      card_auth_transaction: cardRecords.CardAuthTransactionSchema,
      card_fee_patch: cardRecords.CardAuthFeeRecordSchema,
      card_3ds: cardRecords.Card3dsRecordSchema,
      card_holder: CardholderQueryRecordSchema,
      wallet_transaction_v2: WalletTransactionSchema,
      work: WorkOrderSchema,
    } as const;
    const categories = new Set(h.events.map((e) => e.category));
    expect([...categories].sort()).toEqual([...Object.keys(schemas), 'physical_card'].sort());
    for (const event of h.events) {
      if (event.category === 'physical_card') continue;
      const result = schemas[event.category].safeParse(wire(event.payload));
      expect(result.error?.issues ?? []).toEqual([]);
    }
  });
});
