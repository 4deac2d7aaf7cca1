/**
 * The operation registry: all 46 operations of the spec, unique paths, requests that serialize
 * exactly.
 */
import { z } from 'zod';
import { stringifyJson } from '../../../../provider/json';
import { operationByPath, operations, paths, type OperationName } from '../../../../provider/operations';
import { CARD_TYPE_IDS } from '../../../../tools/sandbox/data/card-types';

const NAMES = [
  'walletDepositOrder',
  'walletDepositTransactions',
  'listCoins',
  'createWalletAddress',
  'listWalletAddresses',
  'listWalletTransactions',
  'getAccountInfo',
  'listAccounts',
  'getAccount',
  'listLedgerEntries',
  'createSharedAccount',
  'transferFunds',
  'listCardTypes',
  'openCard',
  'createCard',
  'getCardInfo',
  'getCardSensitiveData',
  'getCardBalance',
  'activatePhysicalCard',
  'freezeCardV1',
  'freezeCard',
  'unfreezeCardV1',
  'unfreezeCard',
  'depositCard',
  'updatePin',
  'listCardPurchases',
  'listCardTransactionsV1',
  'listCardTransactions',
  'listCardAuthTransactions',
  'listCardAuthFees',
  'listCard3dsRecords',
  'listOccupations',
  'createCardholderV1',
  'updateCardholderV1',
  'createCardholder',
  'updateCardholder',
  'createCardholderIdv',
  'updateCardholderIdv',
  'queryCardholders',
  'listRegions',
  'listCities',
  'listCityTree',
  'listMobileAreaCodes',
  'uploadFile',
  'submitWorkOrder',
  'listWorkOrders',
];

const all = Object.values(operations);
/** The names of the operations that `keep` selects, sorted. */
const namesWhere = (keep: (op: (typeof all)[number]) => boolean) =>
  all
    .filter(keep)
    .map((op) => op.name)
    .sort();

describe('operation registry', () => {
  it('has exactly the 46 named operations, each keyed by its own name', () => {
    expect(Object.keys(operations).sort()).toEqual([...NAMES].sort());
    expect(NAMES).toHaveLength(46);
    for (const [key, op] of Object.entries(operations)) expect(op.name).toBe(key);
  });

  it('has 46 unique paths below /merchant/core/mcb', () => {
    const unique = new Set(all.map((op) => op.path));
    expect(unique.size).toBe(46);
    for (const op of all) expect(op.path).toMatch(/^\/merchant\/core\/mcb\/[A-Za-z0-9/]+$/);
    expect(Object.keys(operationByPath)).toHaveLength(46);
    expect(operationByPath['/merchant/core/mcb/card/v2/createCard']).toBe('createCard');
    expect(paths.listCityTree).toBe('/merchant/core/mcb/common/v2/city');
  });

  it('marks the deprecated operations of the spec', () => {
    expect(namesWhere((op) => 'deprecated' in op && op.deprecated)).toEqual([
      'createCardholderV1',
      'openCard',
      'updateCardholderV1',
      'walletDepositOrder',
      'walletDepositTransactions',
    ]);
  });

  it('gives the data shapes the spec shows', () => {
    const shapeOf = (name: OperationName) => operations[name].shape;
    expect([shapeOf('getAccount'), shapeOf('createSharedAccount')]).toEqual(['one', 'one']);
    expect([shapeOf('getAccountInfo'), shapeOf('openCard')]).toEqual(['list', 'list']);
    expect(shapeOf('transferFunds')).toBe('boolean');
    expect(shapeOf('submitWorkOrder')).toBe('bareOrEnvelope');
    expect(namesWhere((op) => op.shape === 'page')).toEqual([
      'listAccounts',
      'listCard3dsRecords',
      'listCardAuthFees',
      'listCardAuthTransactions',
      'listCardPurchases',
      'listCardTransactions',
      'listCardTransactionsV1',
      'listLedgerEntries',
      'listWalletTransactions',
      'listWorkOrders',
      'queryCardholders',
      'walletDepositTransactions',
    ]);
    for (const op of all) expect(op.shape === 'page').toBe('pageField' in op);
  });

  it('marks uploadFile as the only multipart operation', () => {
    expect(all.filter((op) => 'multipart' in op && op.multipart).map((op) => op.name)).toEqual(['uploadFile']);
  });

  it('marks state-changing operations as mutating and queries as not', () => {
    expect(namesWhere((op) => op.mutating)).toEqual([
      'activatePhysicalCard',
      'createCard',
      'createCardholder',
      'createCardholderIdv',
      'createCardholderV1',
      'createSharedAccount',
      'createWalletAddress',
      'depositCard',
      'freezeCard',
      'freezeCardV1',
      'openCard',
      'submitWorkOrder',
      'transferFunds',
      'unfreezeCard',
      'unfreezeCardV1',
      'updateCardholder',
      'updateCardholderIdv',
      'updateCardholderV1',
      'updatePin',
      'uploadFile',
      'walletDepositOrder',
    ]);
    for (const op of all) expect(op.summary.length).toBeGreaterThan(5);
  });

  it('sends {} for operations without parameters', () => {
    for (const name of ['listCoins', 'getAccountInfo', 'listCardTypes', 'listRegions'] as const) {
      expect(stringifyJson(operations[name].request.parse({}))).toBe('{}');
    }
  });

  it('serializes a parsed request with exact numbers', () => {
    const request = operations.depositCard.request.parse({
      cardNo: 'C1852379830190366720',
      merchantOrderNo: 'dep-1852379830190366720',
      amount: '12345678901234567.89',
    });
    expect(stringifyJson(request)).toBe(
      '{"cardNo":"C1852379830190366720","merchantOrderNo":"dep-1852379830190366720","amount":12345678901234567.89}',
    );
    const page = operations.listCardAuthFees.request.parse({
      cardTypeId: CARD_TYPE_IDS.b2bVirtual,
      startTime: 1730419200000,
    });
    expect(stringifyJson(page)).toBe(
      '{"pageNum":1,"pageSize":10,"cardTypeId":1852379830190366720,"startTime":1730419200000}',
    );
  });

  it('validates each record against its schema (the boolean result is true)', () => {
    expect(operations.transferFunds.record.safeParse(true).success).toBe(true);
    expect(operations.transferFunds.record.safeParse(false).success).toBe(false);
    for (const op of all) expect(op.record).toBeInstanceOf(z.ZodType);
  });
});
