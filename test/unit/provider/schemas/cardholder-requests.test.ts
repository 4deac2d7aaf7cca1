/** Cardholder request rules (spec: Cardholders): v2 B2B/B2C union, IDV, v1 and the query. */
import { stringifyJson } from '../../../../provider/json';
import { RESTRICTED_REGIONS } from '../../../../provider/rules';
import {
  CreateCardholderIdvRequestSchema,
  CreateCardholderRequestSchema,
  CreateCardholderV1RequestSchema,
  QueryCardholdersRequestSchema,
  UpdateCardholderIdvRequestSchema,
  UpdateCardholderRequestSchema,
  UpdateCardholderV1RequestSchema,
  allowedIdTypes,
} from '../../../../provider/schemas/cardholder-requests';
import { b2bHolder, b2cHolder, requestFields } from '../../../fixtures/holders';
import { issues, itRefusesEach } from './helpers';
import { CARD_TYPE_IDS } from '../../../../tools/sandbox/data/card-types';

const BIG_ID = CARD_TYPE_IDS.b2bVirtual;

/**
 * The shared sample holders (test/fixtures/holders.ts) as request fields; a hyphen in the address
 * is allowed.
 */
const ada = requestFields(b2bHolder('ada@example.com', { address: '1 Main St-2' }));
const grace = requestFields(
  b2cHolder({ email: 'grace@example.com', idNumber: 'P1234567', fileIds: ['f1', 'f2', 'f3'] }),
);
/** What the IDV requests share with v2: how to reach the holder and the name. */
const contact = {
  areaCode: ada.areaCode,
  mobile: ada.mobile,
  email: ada.email,
  firstName: ada.firstName,
  lastName: ada.lastName,
};
const b2b = { cardHolderModel: 'B2B', merchantOrderNo: 'h'.repeat(20), cardTypeId: BIG_ID, ...ada };
const b2c = { ...b2b, cardHolderModel: 'B2C', ...grace };

describe('v2 create', () => {
  it('accepts B2B and B2C shapes and sends ids as exact JSON numbers', () => {
    expect(issues(CreateCardholderRequestSchema, b2b)).toEqual([]);
    expect(issues(CreateCardholderRequestSchema, b2c)).toEqual([]);
    expect(stringifyJson(CreateCardholderRequestSchema.parse(b2b))).toContain(`"cardTypeId":${BIG_ID}`);
  });

  it('B2B drops B2C-only fields; B2C requires them', () => {
    expect(CreateCardholderRequestSchema.parse({ ...b2b, nationality: 'US' })).not.toHaveProperty('nationality');
    const { idHoldId: _omitted, nationality: _n, ...partial } = b2c;
    expect(
      issues(CreateCardholderRequestSchema, partial)
        .map((l) => l.split(':')[0])
        .sort(),
    ).toEqual(['idHoldId', 'nationality']);
  });

  it('refuses an unknown cardHolderModel', () => {
    expect(issues(CreateCardholderRequestSchema, { ...b2b, cardHolderModel: 'B2X' })).toEqual([
      'cardHolderModel: must be B2B or B2C (the card type metadata.cardHolderModel)',
    ]);
  });

  itRefusesEach('B2B refuses', CreateCardholderRequestSchema, b2b, [
    ['merchantOrderNo', 'short', 'merchantOrderNo: length must be 20 to 40 characters'],
    ['areaCode', '+', 'areaCode: length must be 2 to 5 characters'],
    ['areaCode', '+12345', 'areaCode: length must be 2 to 5 characters'],
    ['mobile', '1234', 'mobile: length must be 5 to 20 characters'],
    ['email', 'a@b', 'email: length must be 5 to 50 characters'],
    ['email', 'not-an-email', 'email: must be an email address such as name@example.com'],
    ['email', `${'a'.repeat(40)}@example.com`, 'email: length must be 5 to 50 characters'],
    ['firstName', 'A', 'firstName: length must be 2 to 32 characters'],
    [
      'firstName',
      'Zoë',
      'firstName: must use English letters only (spaces, hyphens and apostrophes allowed between letters)',
    ],
    ['lastName', '李', 'lastName: length must be 2 to 32 characters'],
    ['birthday', '1990-02-30', 'birthday: must be a real date in the form yyyy-MM-dd'],
    ['birthday', '19900228', 'birthday: must be a real date in the form yyyy-MM-dd'],
    ['country', 'us', 'country: must be an ISO 3166-1 alpha-2 code (two capital letters)'],
    ['country', 'CU', 'country: Cuba (CU) is a restricted country/region and is not accepted'],
    ['address', 'x', 'address: length must be 2 to 40 characters'],
    ['address', '1 Main St, Apt 2', 'address: must contain only letters, digits, hyphens and spaces'],
    ['postCode', '1', 'postCode: length must be 2 to 15 characters'],
    ['postCode', '900-01', 'postCode: must contain only letters and digits'],
  ]);

  itRefusesEach('B2C refuses', CreateCardholderRequestSchema, b2c, [
    ['nationality', 'KP', 'nationality: North Korea (KP) is a restricted country/region and is not accepted'],
    ['gender', 'X', 'gender: must be one of M, F'],
    ['idType', 'SSN', 'idType: must be one of PASSPORT, HK_HKID, DLN, GOVERNMENT_ISSUED_ID_CARD'],
    ['idNumber', 'X', 'idNumber: length must be 2 to 50 characters'],
    ['issueDate', '2020-13-01', 'issueDate: must be a real date in the form yyyy-MM-dd'],
    ['idNoExpiryDate', '2031-02-29', 'idNoExpiryDate: must be a real date in the form yyyy-MM-dd'],
    ['ipAddress', '256.1.1.1', 'ipAddress: must be an IPv4 address'],
    ['ipAddress', '2001:db8::1', 'ipAddress: must be an IPv4 address'],
    ['accountPurpose', '网购', 'accountPurpose: must be English text only'],
    ['occupation', '', 'occupation: must not be empty'],
  ]);

  it('accepts a leap day', () => {
    expect(issues(CreateCardholderRequestSchema, { ...b2b, birthday: '2000-02-29' })).toEqual([]);
  });

  it('limits firstName + space + lastName to 32 characters', () => {
    expect(
      issues(CreateCardholderRequestSchema, { ...b2b, firstName: 'A'.repeat(16), lastName: 'B'.repeat(15) }),
    ).toEqual([]);
    expect(
      issues(CreateCardholderRequestSchema, { ...b2b, firstName: 'A'.repeat(16), lastName: 'B'.repeat(16) }),
    ).toEqual([
      'lastName: firstName and lastName together (with the space between them) must be at most 32 characters',
    ]);
  });

  it('rejects every restricted region as nationality and country', () => {
    for (const code of Object.keys(RESTRICTED_REGIONS)) {
      expect(
        issues(CreateCardholderRequestSchema, { ...b2c, nationality: code, country: code })
          .map((l) => l.split(':')[0])
          .sort(),
      ).toEqual(['country', 'nationality']);
    }
  });

  it('limits the ID type by region: Hong Kong PASSPORT or HK_HKID, others PASSPORT, DLN, GOVERNMENT_ISSUED_ID_CARD', () => {
    expect(allowedIdTypes('HK')).toEqual(['PASSPORT', 'HK_HKID']);
    expect(issues(CreateCardholderRequestSchema, { ...b2c, nationality: 'HK', idType: 'HK_HKID' })).toEqual([]);
    expect(issues(CreateCardholderRequestSchema, { ...b2c, nationality: 'HK', idType: 'DLN' })).toEqual([
      'idType: must be one of PASSPORT, HK_HKID for nationality HK',
    ]);
    expect(issues(CreateCardholderRequestSchema, { ...b2c, nationality: 'US', idType: 'HK_HKID' })).toEqual([
      'idType: must be one of PASSPORT, DLN, GOVERNMENT_ISSUED_ID_CARD for nationality US',
    ]);
    expect(issues(CreateCardholderRequestSchema, { ...b2c, idType: 'GOVERNMENT_ISSUED_ID_CARD' })).toEqual([]);
  });
});

describe('v2 update', () => {
  const { merchantOrderNo: _m, cardTypeId: _c, ...b2cFields } = b2c;

  it('takes holderId instead of merchantOrderNo and cardTypeId', () => {
    const parsed = UpdateCardholderRequestSchema.parse({
      ...b2cFields,
      holderId: BIG_ID,
      merchantOrderNo: 'x'.repeat(20),
    });
    expect(parsed).not.toHaveProperty('merchantOrderNo');
    expect(issues(UpdateCardholderRequestSchema, b2cFields).map((l) => l.split(':')[0])).toEqual(['holderId']);
  });

  it('B2C identity fields are optional on update but checked when present', () => {
    const {
      idType: _t,
      idNumber: _n,
      issueDate: _i,
      idNoExpiryDate: _e,
      idFrontId: _f,
      idBackId: _b,
      idHoldId: _h,
      ipAddress: _a,
      ...core
    } = b2cFields;
    expect(issues(UpdateCardholderRequestSchema, { ...core, holderId: '1' })).toEqual([]);
    expect(issues(UpdateCardholderRequestSchema, { ...core, holderId: '1', nationality: 'HK', idType: 'DLN' })).toEqual(
      ['idType: must be one of PASSPORT, HK_HKID for nationality HK'],
    );
    expect(issues(UpdateCardholderRequestSchema, { ...core, holderId: '1', ipAddress: '1.2.3' })).toEqual([
      'ipAddress: must be an IPv4 address',
    ]);
  });

  it('B2B update applies the shared rules', () => {
    const { merchantOrderNo: _m2, cardTypeId: _c2, ...b2bFields } = b2b;
    expect(issues(UpdateCardholderRequestSchema, { ...b2bFields, holderId: '1', postCode: 'x' })).toEqual([
      'postCode: length must be 2 to 15 characters',
    ]);
  });
});

describe('IDV', () => {
  const idv = {
    merchantOrderNo: 'i'.repeat(40),
    cardTypeId: BIG_ID,
    ...contact,
    annualSalary: '50000 USD',
    accountPurpose: 'Travel',
    expectedMonthlyVolume: '500 USD',
    idvShareToken: 'tok_123',
    ipAddress: '198.51.100.1',
  };

  it('create requires the share token and an IPv4 address', () => {
    expect(issues(CreateCardholderIdvRequestSchema, idv)).toEqual([]);
    expect(issues(CreateCardholderIdvRequestSchema, { ...idv, idvShareToken: '' })).toEqual([
      'idvShareToken: must not be empty',
    ]);
    expect(issues(CreateCardholderIdvRequestSchema, { ...idv, ipAddress: 'localhost' })).toEqual([
      'ipAddress: must be an IPv4 address',
    ]);
    expect(issues(CreateCardholderIdvRequestSchema, { ...idv, merchantOrderNo: 'i'.repeat(41) })).toEqual([
      'merchantOrderNo: length must be 20 to 40 characters',
    ]);
  });

  it('update requires holderId and every field', () => {
    const { merchantOrderNo: _m, cardTypeId: _c, ...fields } = idv;
    expect(issues(UpdateCardholderIdvRequestSchema, { ...fields, holderId: BIG_ID })).toEqual([]);
    const { accountPurpose: _p, ...missing } = fields;
    expect(issues(UpdateCardholderIdvRequestSchema, { ...missing, holderId: BIG_ID })).toEqual([
      'accountPurpose: is required (a string)',
    ]);
  });
});

describe('deprecated v1', () => {
  const v1 = { merchantOrderNo: 'v'.repeat(20), cardTypeId: '7', ...ada, nationality: 'GB' };

  it('create requires nationality outside the restricted list', () => {
    expect(issues(CreateCardholderV1RequestSchema, v1)).toEqual([]);
    expect(issues(CreateCardholderV1RequestSchema, { ...v1, nationality: 'IR' })).toEqual([
      'nationality: Iran (IR) is a restricted country/region and is not accepted',
    ]);
  });

  it('update takes holderId', () => {
    const { merchantOrderNo: _m, cardTypeId: _c, ...fields } = v1;
    expect(issues(UpdateCardholderV1RequestSchema, { ...fields, holderId: '9' })).toEqual([]);
    expect(issues(UpdateCardholderV1RequestSchema, { ...fields, holderId: '9', address: 'x#' })).toEqual([
      'address: must contain only letters, digits, hyphens and spaces',
    ]);
  });
});

describe('query', () => {
  it('takes areaCode and mobile together or not at all', () => {
    expect(issues(QueryCardholdersRequestSchema, {})).toEqual([]);
    expect(issues(QueryCardholdersRequestSchema, { areaCode: '+1', mobile: '5550100' })).toEqual([]);
    expect(issues(QueryCardholdersRequestSchema, { areaCode: '+1' })).toEqual([
      'mobile: areaCode and mobile must be given together (both or neither)',
    ]);
    expect(issues(QueryCardholdersRequestSchema, { mobile: '5550100' })).toEqual([
      'areaCode: areaCode and mobile must be given together (both or neither)',
    ]);
  });

  it('pages by at most 100', () => {
    expect(QueryCardholdersRequestSchema.parse({ holderId: BIG_ID })).toMatchObject({ pageNum: 1, pageSize: 10 });
    expect(issues(QueryCardholdersRequestSchema, { pageSize: 101 })).toEqual(['pageSize: must be 1 to 100']);
  });
});
