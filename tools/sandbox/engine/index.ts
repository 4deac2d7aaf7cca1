/**
 * The sandbox engine: all provider state and rules behind `SandboxEngine`
 * (tools/sandbox/contract.ts). `handle` dispatches by the operation names of
 * provider/operations.ts; every handler validates completely before it changes anything, so a
 * refused request leaves no trace.
 */
import {
  SandboxError,
  SandboxErrorCode,
  type SandboxEngine,
  type SandboxEngineDeps,
  type UploadedFile,
} from '../contract';
import { CARD_TYPES } from '../data/card-types';
import { COINS } from '../data/coins';
import * as accounts from './accounts';
import * as cardholders from './cardholders';
import * as cardOps from './card-operations';
import * as cards from './cards';
import { listCardTypes } from './card-types';
import { createCtx, type Ctx } from './context';
import { uploadFile } from './files';
import { createHelpers } from './helpers';
import { createAccount, credit, externalFlow, moneySnapshot } from './ledger';
import * as records from './records';
import * as reference from './reference';
import type { Req } from './request';
import type { State } from './state';
import * as wallet from './wallet';
import * as workOrders from './work-orders';

export interface SandboxEngineOptions {
  /**
   * Opening balance of the merchant WALLET account (provider-notes: the sandbox starts funded).
   * Default "100000.00".
   */
  initialWalletBalance?: string;
}

type Handler = (ctx: Ctx, req: Req, file?: UploadedFile) => unknown;

/** Operation name (provider/operations.ts) -> handler. */
const HANDLERS: Record<string, Handler> = {
  walletDepositOrder: wallet.walletDepositOrder,
  walletDepositTransactions: wallet.walletDepositTransactions,
  listCoins: wallet.listCoins,
  createWalletAddress: wallet.createWalletAddress,
  listWalletAddresses: wallet.listWalletAddresses,
  listWalletTransactions: wallet.listWalletTransactions,
  getAccountInfo: accounts.getAccountInfo,
  listAccounts: accounts.listAccounts,
  getAccount: accounts.getAccountOne,
  listLedgerEntries: accounts.listLedgerEntries,
  createSharedAccount: accounts.createSharedAccount,
  transferFunds: accounts.transferFunds,
  listCardTypes,
  openCard: cards.openCard,
  createCard: cards.createCard,
  getCardInfo: cards.getCardInfo,
  getCardSensitiveData: cards.getCardSensitiveData,
  getCardBalance: cards.getCardBalance,
  activatePhysicalCard: cardOps.activatePhysicalCard,
  freezeCardV1: cardOps.freezeCardV1,
  freezeCard: cardOps.freezeCard,
  unfreezeCardV1: cardOps.unfreezeCardV1,
  unfreezeCard: cardOps.unfreezeCard,
  depositCard: cardOps.depositCard,
  updatePin: cardOps.updatePin,
  listCardPurchases: records.listCardPurchases,
  listCardTransactionsV1: records.listCardTransactionsV1,
  listCardTransactions: records.listCardTransactions,
  listCardAuthTransactions: records.listCardAuthTransactions,
  listCardAuthFees: records.listCardAuthFees,
  listCard3dsRecords: records.listCard3dsRecords,
  listOccupations: reference.listOccupations,
  createCardholderV1: cardholders.createCardholderV1,
  updateCardholderV1: cardholders.updateCardholderV1,
  createCardholder: cardholders.createCardholder,
  updateCardholder: cardholders.updateCardholder,
  createCardholderIdv: cardholders.createCardholderIdv,
  updateCardholderIdv: cardholders.updateCardholderIdv,
  queryCardholders: cardholders.queryCardholders,
  listRegions: reference.listRegions,
  listCities: reference.listCities,
  listCityTree: reference.listCityTree,
  listMobileAreaCodes: reference.listMobileAreaCodes,
  uploadFile,
  submitWorkOrder: workOrders.submitWorkOrder,
  listWorkOrders: workOrders.listWorkOrders,
};

/** Names of every operation the engine answers (the 46 of the spec). */
export const ENGINE_OPERATIONS: readonly string[] = Object.keys(HANDLERS);

function initialState(): State {
  return {
    accounts: new Map(),
    walletAccountId: '',
    ledger: [],
    cardTypes: new Map(CARD_TYPES.map((t) => [t.cardTypeId, t])),
    cards: new Map(),
    operations: [],
    pendingOperations: new Map(),
    purchases: [],
    auths: [],
    pendingSettlements: new Map(),
    authFees: [],
    threeDs: [],
    holders: new Map(),
    files: new Map(),
    coins: [...COINS],
    addresses: [],
    walletTransactions: [],
    depositOrders: [],
    workOrders: [],
    merchantOrders: new Map(),
    usedPans: new Set(),
    feesCollected: '0',
    externalCredits: '0',
    taskErrors: [],
  };
}

export function createSandboxEngine(deps: SandboxEngineDeps, options: SandboxEngineOptions = {}): SandboxEngine {
  const state = initialState();
  const ctx = createCtx(deps, state);
  const wallet = createAccount(ctx, 'WALLET', 'Merchant wallet');
  state.walletAccountId = wallet.accountId;
  const opening = options.initialWalletBalance ?? '100000.00';
  credit(ctx, wallet, {
    amount: opening,
    bizType: 'fixed',
    orderNo: ctx.ids.orderNo(),
    remark: 'sandbox opening balance',
  });
  externalFlow(ctx, opening);

  return {
    handle(operation: string, request: Record<string, unknown>, file?: UploadedFile): unknown {
      const handler = HANDLERS[operation];
      if (!handler) throw new SandboxError(SandboxErrorCode.badRequest, `unknown operation ${operation}`);
      return handler(ctx, request ?? {}, file);
    },
    helpers: createHelpers(ctx),
    moneySnapshot: () => moneySnapshot(ctx),
  };
}
