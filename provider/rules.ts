/**
 * Every limit, pattern and enumeration the spec states, written once.
 *
 * Schemas (`provider/schemas/**`), the sandbox and the tests read these constants; a change of a
 * provider rule is a change here. Section names in comments refer to `card-issuing-api.md`.
 */

// ---------------------------------------------------------------------------
// Paging and time ranges (Limits)

export const PAGE_NUM_DEFAULT = 1;
export const PAGE_SIZE_DEFAULT = 10;
/** pageSize maximum of wallet, ledger, card records and cardholder queries. */
export const PAGE_SIZE_MAX = 100;
/** pageSize maximum of the account list. */
export const ACCOUNT_PAGE_SIZE_MAX = 10;

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Wallet v2 transaction query: at most 90 days between startTime and endTime. */
export const WALLET_TX_RANGE_DAYS = 90;
/** Ledger (account transaction) query: at most 30 days between startTime and endTime. */
export const LEDGER_RANGE_DAYS = 30;

// ---------------------------------------------------------------------------
// Lengths (Limits; Cardholders; Work orders)

/**
 * merchantOrderNo of cardholder create, work order, transfer, freeze, unfreeze, deposit, activate,
 * update PIN.
 */
export const MERCHANT_ORDER_NO = { min: 20, max: 40 } as const;
/** merchantOrderNo of create card (v2 and the deprecated openCard). */
export const CARD_MERCHANT_ORDER_NO = { min: 15, max: 65 } as const;
export const CLIENT_REMARK = { min: 0, max: 50 } as const;
export const WORK_ORDER_TITLE = { min: 1, max: 255 } as const;
export const WORK_ORDER_TARGET = { min: 1, max: 255 } as const;
export const WORK_ORDER_CONTENT = { min: 0, max: 1000 } as const;
/**
 * Supporting files of one work order: the spec sets no number; ours keeps a work order's input
 * small.
 */
export const WORK_ORDER_FILES_MAX = 20;

export const HOLDER_AREA_CODE = { min: 2, max: 5 } as const;
export const HOLDER_MOBILE = { min: 5, max: 20 } as const;
export const HOLDER_EMAIL = { min: 5, max: 50 } as const;
/** firstName and lastName, each. */
export const HOLDER_NAME = { min: 2, max: 32 } as const;
/**
 * firstName and lastName together, "including spaces". We count the names as the card shows
 * them, `firstName + ' ' + lastName`: the single joining space counts as one character
 * (the stricter reading, so nothing we accept can be refused for this rule).
 */
export const HOLDER_FULL_NAME_MAX = 32;
export const HOLDER_ADDRESS = { min: 2, max: 40 } as const;
export const HOLDER_POST_CODE = { min: 2, max: 15 } as const;
export const HOLDER_ID_NUMBER = { min: 2, max: 50 } as const;
/**
 * Text fields the spec gives no length (town, annualSalary, file ids, accountName, remarks,
 * query filters, ...): our documented limit, far above any real value, so an oversized field is
 * refused by name instead of failing a workflow start on Temporal's payload limit.
 */
export const FREE_TEXT_MAX = 255;
/** Amounts as text (BigDecimal): digits enough for any amount, not a megabyte of them. */
export const DECIMAL_TEXT_MAX = 40;
/** Opaque tokens the spec gives no length (idvShareToken): room for a signed token. */
export const TOKEN_TEXT_MAX = 4096;

// ---------------------------------------------------------------------------
// Character policy of every text field (client, CLI, workflow validation and sandbox alike)

/**
 * Characters no text field accepts: controls (Cc: NUL, BEL, ESC, DEL, ...), format characters
 * (Cf: zero-width space and joiners, bidi embeddings, overrides and isolates, the BOM), surrogate
 * halves (Cs), private use (Co), and the line and paragraph separators (Zl, Zp). They are
 * invisible or reorder what a person reads, so what the provider holds would differ from what
 * anyone sees.
 */
export const FORBIDDEN_TEXT_RE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/u;
/**
 * The same for multi-line text (a work order's content): tab, line feed and carriage return
 * allowed.
 */
export const FORBIDDEN_MULTILINE_TEXT_RE = /(?![\t\n\r])[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/u;
export const FORBIDDEN_TEXT_RULE = 'must not contain control, invisible (format) or bidi-override characters';
/**
 * Text is compared by the provider as sent (e-mail and ID number are unique per card type), so one
 * spelling per text: composed Unicode (NFC), as keyboards produce it on most systems.
 */
export const NFC_RULE = 'must be composed Unicode (NFC): an accented letter as one character';

/** The character rule `text` breaks, or undefined when it is clean. */
export function textCharacterIssue(text: string, multiline = false): string | undefined {
  if ((multiline ? FORBIDDEN_MULTILINE_TEXT_RE : FORBIDDEN_TEXT_RE).test(text)) return FORBIDDEN_TEXT_RULE;
  if (text.normalize('NFC') !== text) return NFC_RULE;
  return undefined;
}

/**
 * The length rule (in UTF-16 units, as the schemas' `lengthBetween` counts) or character rule
 * `text` breaks, or undefined: for the input rules written by hand (domain/*-issues), so they
 * refuse what the schemas refuse, in the same words.
 */
export function textRuleIssue(text: string, min: number, max: number, multiline = false): string | undefined {
  if (text.length < min || text.length > max) return `length must be ${min} to ${max} characters`;
  return textCharacterIssue(text, multiline);
}

// ---------------------------------------------------------------------------
// Patterns

export const ADDRESS_RE = /^[A-Za-z0-9\- ]+$/;
export const POST_CODE_RE = /^[a-zA-Z0-9]{1,15}$/;
/** PIN of activate and update PIN: exactly 6 digits. */
export const PIN_RE = /^\d{6}$/;
export { AMOUNT_RE } from '../platform/config/values/amount';
/** A signed decimal, as the wire may carry one (ledger amounts, balances). */
export const DECIMAL_RE = /^-?(0|[1-9]\d*)(\.\d+)?$/;
/**
 * A Long id (accountId, cardTypeId, holderId...) as a digit string: 19 digits survive, a JS number
 * would not.
 */
export const LONG_ID_RE = /^\d{1,19}$/;
/** "Only English characters in names": Latin letters, with inner spaces, hyphens or apostrophes. */
export const ENGLISH_NAME_RE = /^[A-Za-z]+(?:[ '-][A-Za-z]+)*$/;
/** accountPurpose "English only": printable ASCII, at least one letter. */
export const ENGLISH_TEXT_RE = /^(?=.*[A-Za-z])[\x20-\x7E]+$/;
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const IPV4_RE = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
export const ALPHA2_RE = /^[A-Z]{2}$/;
/** yyyy-MM-dd; the calendar check (no 2023-02-30) is done in the schema. */
export const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

// ---------------------------------------------------------------------------
// Amounts

/** noPinPaymentAmount of activate: 0 to 2000 USD (default 500 USD, applied by the provider). */
export const NO_PIN_PAYMENT_AMOUNT = { min: '0', max: '2000', default: '500' } as const;

// ---------------------------------------------------------------------------
// File upload

/** "size up to 2M": 2 MiB. */
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
export const UPLOAD_CATEGORY = 'card';
/** Accepted kinds (jpg, png, pdf), kept where the file store can read them too. */
export { UPLOAD_KINDS } from '../platform/storage/file-kinds';

// ---------------------------------------------------------------------------
// Restricted countries/regions (Cardholders)

/**
 * Not accepted as nationality or country, ISO 3166-1 alpha-2 with the spec's names.
 * Crimea has no ISO code of its own: the field only carries a country code, and Crimea's
 * possible codes (UA, RU) are both listed, so it is rejected through them. A town inside
 * Crimea cannot be recognised from a city code alone; the provider's city list decides.
 */
export const RESTRICTED_REGIONS = {
  CU: 'Cuba',
  KP: 'North Korea',
  EG: 'Egypt',
  IR: 'Iran',
  MM: 'Myanmar',
  NG: 'Nigeria',
  RU: 'Russia',
  BY: 'Belarus',
  ZA: 'South Africa',
  SY: 'Syria',
  UA: 'Ukraine',
  VE: 'Venezuela',
  SD: 'Sudan',
  SS: 'South Sudan',
  LY: 'Libya',
  BI: 'Burundi',
  CF: 'Central African Republic',
  SO: 'Somalia',
  ZW: 'Zimbabwe',
  AF: 'Afghanistan',
} as const satisfies Record<string, string>;

export function isRestrictedRegion(code: string): boolean {
  return Object.prototype.hasOwnProperty.call(RESTRICTED_REGIONS, code);
}

// ---------------------------------------------------------------------------
// Enumerations

/**
 * Whether a status as a record carries it (null or absent when the provider left it out) is one of
 * `values`.
 */
function isOneOf(values: readonly string[]): (status: string | null | undefined) => boolean {
  return (status) => typeof status === 'string' && values.includes(status);
}

export const OPERATION_STATUSES = ['wait_process', 'processing', 'success', 'fail'] as const;
/**
 * The statuses an operation, purchase, wallet transaction or work order ends in (spec: State sets;
 * the spec states no move out of them, apart from a deprecated deposit record's manual fail →
 * success).
 */
export const OPERATION_FINAL_STATUSES = ['success', 'fail'] as const;
export const isFinalOperationStatus = isOneOf(OPERATION_FINAL_STATUSES);
export const ACCOUNT_TYPES = ['WALLET', 'MARGIN'] as const;
export const TRANSFER_TYPES = ['TRANSFER', 'COLLECTION'] as const;
export const LEDGER_DIRECTIONS = ['IN', 'OUT'] as const;
export const LEDGER_BIZ_TYPES = [
  'chain_deposit',
  'chain_withdraw',
  'card_purchase',
  'card_deposit',
  'card_withdraw',
  'card_cancel',
  'card_auth_fee_patch',
  'card_auth_cross_board_patch',
  'gt_transfer',
  'fixed',
  'card_overdraft_statement',
  'gt_transfer_refund',
  'card_settlement',
  'card_refund',
  'fund_transfer',
  'fund_collection',
  'card_decline_fee',
] as const;
export const WALLET_TX_TYPES = ['DEPOSIT', 'WITHDRAW'] as const;
export const DEPOSIT_CHAINS = ['TRC20', 'BEP20'] as const;

export const CARD_ORGANIZATIONS = ['Visa', 'MasterCard', 'Discover'] as const;
export const CARD_MODES = ['PREPAID_CARD', 'BUDGET_CARD'] as const;
export const CARD_FORMS = ['Virtual', 'Physical'] as const;
export const CARD_CATEGORIES = ['GIFT', 'PURCHASE', 'SUBSCRIPTION', 'PHYSICAL'] as const;
export const CARD_TYPE_STATUSES = ['online', 'offline'] as const;
export const CARD_HOLDER_MODELS = ['B2B', 'B2C'] as const;
export const SPENDING_INTERVALS = ['PER_TRANSACTION'] as const;
/** Card status; `blocked` comes from an earlier listing. */
export const CARD_STATUSES = [
  'pending',
  'un_activated',
  'Normal',
  'Freeze',
  'Freezing',
  'UnFreezing',
  'canceling',
  'cancel',
  'fail',
  'blocked',
] as const;
export const CARD_TRANSACTION_TYPES = [
  'create',
  'deposit',
  'cancel',
  'Freeze',
  'UnFreeze',
  'withdraw',
  'update_pin',
  'blocked',
  'card_update',
  'overdraft_statement',
] as const;
export const CARD_TRANSACTION_SUB_TYPES = ['DEFAULT', 'REFUND'] as const;
export const FREEZE_V1_STATUSES = ['processing', 'success', 'fail'] as const;
export const AUTH_TRANSACTION_TYPES = ['auth', 'refund', 'verification', 'Void', 'maintain_fee'] as const;
export const AUTH_TRANSACTION_STATUSES = ['authorized', 'failed', 'succeed'] as const;
export const AUTH_FEE_TYPES = ['card_patch_fee', 'card_patch_cross_border'] as const;
export const THREE_DS_TYPES = ['third_3ds_otp', 'auth_url', 'activation_code'] as const;

export const HOLDER_STATUSES = ['wait_audit', 'pass_audit', 'under_review', 'reject'] as const;
/**
 * The review results a cardholder's review ends in: approved, or rejected (corrected data starts a
 * new review).
 */
export const HOLDER_FINAL_STATUSES = ['pass_audit', 'reject'] as const;
export const isFinalReviewStatus = isOneOf(HOLDER_FINAL_STATUSES);
export const HOLDER_FLOW_LOCATIONS = ['admin', 'channel'] as const;
export const GENDERS = ['M', 'F'] as const;
export const ID_TYPES = ['PASSPORT', 'HK_HKID', 'DLN', 'GOVERNMENT_ISSUED_ID_CARD'] as const;
/** Supported ID types by region (Cardholders): Hong Kong, and every other region. */
export const ID_TYPES_HONG_KONG = ['PASSPORT', 'HK_HKID'] as const;
export const ID_TYPES_OTHER = ['PASSPORT', 'DLN', 'GOVERNMENT_ISSUED_ID_CARD'] as const;
export const HONG_KONG = 'HK';

export const MOBILE_AREA_LANGUAGES = ['zh_CN', 'en_US'] as const;
export const WORK_ORDER_TRADE_TYPES = ['CARD_ACTIVE', 'OTHER'] as const;
