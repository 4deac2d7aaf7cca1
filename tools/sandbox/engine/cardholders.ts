/**
 * Cardholders and their review (spec: "Cardholders", "Cardholder (review result)", "States and
 * transitions"; provider-notes: review goes first through the platform (admin), then the bank
 * (channel)). Create -> wait_audit at admin -> (reviewAdminMs) under_review at channel or reject
 * at admin -> (reviewChannelMs) pass_audit or reject at channel. Update only in reject; it
 * returns the holder to admin review. Each change emits `card_holder` with the query record.
 */
import { HONG_KONG, ID_TYPES_HONG_KONG, ID_TYPES_OTHER, isRestrictedRegion } from '../../../provider/rules';
import type { CardTypeDef } from '../data/card-types';
import { cityByCode, RESTRICTED_CITY_PARENTS, CITY_TREE } from '../data/cities';
import { OCCUPATIONS } from '../data/occupations';
import { getCardType } from './card-types';
import { notFound, paramError, stateError, type Ctx } from './context';
import { reviewMagic } from './magic';
import { page, byField, newestFirst } from './paging';
import { registerOrder, requireNewOrder } from './orders';
import { long, optText, text, type Req } from './request';
import type { Holder } from './state';
import { holderRecordWire, holderResultWire } from './wire';

type Shape = Holder['shape'];

const KEY_FIELDS = new Set(['merchantOrderNo', 'cardTypeId', 'holderId', 'cardHolderModel']);
const FILE_FIELDS = ['idFrontId', 'idBackId', 'idHoldId'] as const;

/** The request's holder data as strings (keys and the model selector excluded). */
function holderFields(req: Req): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const key of Object.keys(req)) {
    if (KEY_FIELDS.has(key)) continue;
    const v = optText(req, key);
    if (v !== undefined) fields[key] = v;
  }
  return fields;
}

function checkModel(type: CardTypeDef, shape: Shape): void {
  if (!type.needCardHolder) {
    throw paramError('cardTypeId', `card type ${type.cardTypeId} does not use cardholders (needCardHolder=false)`);
  }
  const model = type.metadata.cardHolderModel;
  if ((shape === 'B2B' || shape === 'B2C') && shape !== model) {
    throw paramError(
      'cardHolderModel',
      `card type ${type.cardTypeId} takes ${model} cardholders (metadata.cardHolderModel), not ${shape}`,
    );
  }
  if (shape === 'v1' && model !== 'B2B') {
    throw paramError(
      'cardHolderModel',
      `card type ${type.cardTypeId} takes ${model} cardholders; the deprecated v1 shape only fits B2B bins, use /card/holder/v2/create`,
    );
  }
}

function checkRegion(type: CardTypeDef, field: string, code: string | undefined): void {
  if (code === undefined) return;
  if (isRestrictedRegion(code)) throw paramError(field, `${code} is a restricted country/region and is not accepted`);
  if (!type.supportHolderRegin.includes(code)) {
    throw paramError(field, `${code} is not supported by card type ${type.cardTypeId} (supportHolderRegin)`);
  }
}

/** Rules that depend on the card type, the reference data and other holders. */
function checkFields(ctx: Ctx, type: CardTypeDef, f: Record<string, string>, self?: string): void {
  if (f.areaCode !== undefined && !type.supportHolderAreaCode.includes(f.areaCode)) {
    throw paramError(
      'areaCode',
      `${f.areaCode} is not supported by card type ${type.cardTypeId} (supportHolderAreaCode)`,
    );
  }
  checkRegion(type, 'nationality', f.nationality);
  checkRegion(type, 'country', f.country);
  if (f.town !== undefined) {
    const city = cityByCode(f.town);
    if (!city) throw paramError('town', `${f.town} is not a city code from the city list (/common/city)`);
    if (f.country !== undefined && city.country !== f.country) {
      throw paramError('town', `city ${f.town} (${city.name}) is in ${city.country}, not in country ${f.country}`);
    }
    const parent = CITY_TREE.find((s) => s.children.some((c) => c.code === f.town));
    if (parent && RESTRICTED_CITY_PARENTS.has(parent.code)) {
      throw paramError('town', `${city.name} is in ${parent.name}, a restricted region`);
    }
  }
  if (f.idType !== undefined) {
    // Spec, "Supported ID types": Hong Kong takes PASSPORT or HK_HKID; other regions PASSPORT, DLN,
    // GOVERNMENT_ISSUED_ID_CARD.
    const region = f.nationality ?? f.country ?? '';
    const allowed: readonly string[] = region === HONG_KONG ? ID_TYPES_HONG_KONG : ID_TYPES_OTHER;
    if (!allowed.includes(f.idType))
      throw paramError('idType', `must be one of ${allowed.join(', ')} for nationality ${region}`);
  }
  if (f.occupation !== undefined && !OCCUPATIONS.some((o) => o.occupationCode === f.occupation)) {
    throw paramError('occupation', `${f.occupation} is not an occupationCode from /card/holder/occupations`);
  }
  for (const field of FILE_FIELDS) {
    const fileId = f[field];
    if (fileId !== undefined && !ctx.state.files.has(fileId)) throw notFound(field, `file ${fileId} was not uploaded`);
  }
  // Email and ID number are unique per cardTypeId (spec, "Cardholders").
  for (const other of ctx.state.holders.values()) {
    if (other.cardTypeId !== type.cardTypeId || other.holderId === self) continue;
    if (f.email !== undefined && other.fields.email?.toLowerCase() === f.email.toLowerCase()) {
      throw paramError('email', `is already used by cardholder ${other.holderId} of card type ${type.cardTypeId}`);
    }
    if (f.idNumber !== undefined && other.fields.idNumber === f.idNumber) {
      throw paramError('idNumber', `is already used by cardholder ${other.holderId} of card type ${type.cardTypeId}`);
    }
  }
}

function emitHolder(ctx: Ctx, h: Holder): void {
  ctx.emit('card_holder', holderRecordWire(h));
}

function setStage(
  ctx: Ctx,
  h: Holder,
  location: Holder['statusFlowLocation'],
  status: Holder['status'],
  description: string | null,
): void {
  h.statusFlowLocation = location;
  h.status = status;
  h.description = description;
  h.updateTime = ctx.now();
  emitHolder(ctx, h);
}

/** Applies a review decision at the holder's current stage. */
function decide(ctx: Ctx, h: Holder, outcome: 'pass' | 'reject', description?: string): void {
  h.cancelStep?.();
  h.cancelStep = null;
  if (h.statusFlowLocation === 'admin') {
    if (outcome === 'reject') {
      setStage(
        ctx,
        h,
        'admin',
        'reject',
        description ?? 'Rejected by platform review: information incomplete or inconsistent',
      );
      return;
    }
    setStage(ctx, h, 'channel', 'under_review', description ?? 'Platform review passed; under bank review');
    scheduleStep(ctx, h, ctx.deps.delays.reviewChannelMs);
    return;
  }
  if (outcome === 'reject') setStage(ctx, h, 'channel', 'reject', description ?? 'Rejected by bank review');
  else setStage(ctx, h, 'channel', 'pass_audit', description ?? 'Approved');
}

function scheduleStep(ctx: Ctx, h: Holder, delay: number): void {
  if (h.stall) return; // waits for decideCardholderReview
  h.cancelStep = ctx.later(delay, () => {
    h.cancelStep = null;
    const reject = h.rejectAt === h.statusFlowLocation;
    decide(ctx, h, reject ? 'reject' : 'pass', reject ? (h.rejectReason ?? undefined) : undefined);
  });
}

/**
 * The platform review rejects a holder whose identity document cannot be read (its file carries the
 * marker of engine/magic.ts), naming each such field, as a reviewer asking for a new image would.
 */
function unreadableDocuments(ctx: Ctx, h: Holder): string | null {
  const fields = FILE_FIELDS.filter((field) => {
    const fileId = h.fields[field];
    return fileId !== undefined && ctx.state.files.get(fileId)?.unreadable === true;
  });
  if (!fields.length) return null;
  return fields
    .map((field) => `${field}: the document in file ${h.fields[field]} cannot be read; upload a clear image`)
    .join('; ');
}

function startReview(ctx: Ctx, h: Holder): void {
  Object.assign(h, reviewMagic(h.fields.email), { rejectReason: null });
  const unreadable = unreadableDocuments(ctx, h);
  if (unreadable) Object.assign(h, { rejectAt: 'admin', rejectReason: unreadable });
  setStage(ctx, h, 'admin', 'wait_audit', null);
  scheduleStep(ctx, h, ctx.deps.delays.reviewAdminMs);
}

function createHolder(ctx: Ctx, req: Req, shape: Shape): unknown {
  const merchantOrderNo = text(req, 'merchantOrderNo');
  requireNewOrder(ctx, merchantOrderNo);
  const type = getCardType(ctx, text(req, 'cardTypeId'));
  checkModel(type, shape);
  const fields = holderFields(req);
  checkFields(ctx, type, fields);

  const now = ctx.now();
  const holder: Holder = {
    holderId: ctx.ids.longId(),
    merchantOrderNo,
    cardTypeId: type.cardTypeId,
    shape,
    fields,
    statusFlowLocation: 'admin',
    status: 'wait_audit',
    description: null,
    createTime: now,
    updateTime: now,
    stall: false,
    rejectAt: null,
    rejectReason: null,
    cancelStep: null,
  };
  ctx.state.holders.set(holder.holderId, holder);
  registerOrder(ctx, merchantOrderNo, 'cardholder', holder.holderId);
  startReview(ctx, holder);
  return holderResultWire(holder);
}

function updateHolder(ctx: Ctx, req: Req, shape: Shape): unknown {
  const holderId = long(req, 'holderId');
  const holder = ctx.state.holders.get(holderId);
  if (!holder) throw notFound('holderId', `cardholder ${holderId} does not exist`);
  if (holder.status !== 'reject') {
    throw stateError(
      'holderId',
      `cardholder ${holderId} is ${holder.status} at ${holder.statusFlowLocation}; update is allowed only when status=reject`,
    );
  }
  const type = getCardType(ctx, holder.cardTypeId);
  checkModel(type, shape);
  const fields = { ...holder.fields, ...holderFields(req) };
  checkFields(ctx, type, fields, holderId);

  holder.fields = fields;
  holder.shape = shape;
  startReview(ctx, holder);
  return holderResultWire(holder);
}

const v2Shape = (req: Req): Shape => {
  const model = text(req, 'cardHolderModel');
  if (model !== 'B2B' && model !== 'B2C') throw paramError('cardHolderModel', 'must be B2B or B2C');
  return model;
};

export const createCardholderV1 = (ctx: Ctx, req: Req) => createHolder(ctx, req, 'v1');
export const updateCardholderV1 = (ctx: Ctx, req: Req) => updateHolder(ctx, req, 'v1');
export const createCardholder = (ctx: Ctx, req: Req) => createHolder(ctx, req, v2Shape(req));
export const updateCardholder = (ctx: Ctx, req: Req) => updateHolder(ctx, req, v2Shape(req));
export const createCardholderIdv = (ctx: Ctx, req: Req) => createHolder(ctx, req, 'idv');
export const updateCardholderIdv = (ctx: Ctx, req: Req) => updateHolder(ctx, req, 'idv');

export function queryCardholders(ctx: Ctx, req: Req): unknown {
  if ((optText(req, 'areaCode') === undefined) !== (optText(req, 'mobile') === undefined)) {
    throw paramError(
      optText(req, 'areaCode') === undefined ? 'areaCode' : 'mobile',
      'areaCode and mobile must be given together (both or neither)',
    );
  }
  let holders = newestFirst([...ctx.state.holders.values()], (h) => h.createTime);
  holders = byField(holders, req, 'holderId');
  holders = byField(holders, req, 'merchantOrderNo');
  holders = byField(holders, req, 'email', (h) => h.fields.email);
  holders = byField(holders, req, 'areaCode', (h) => h.fields.areaCode);
  holders = byField(holders, req, 'mobile', (h) => h.fields.mobile);
  return page(holders, req, holderRecordWire);
}

/** decideCardholderReview helper: decides the current stage now (stalled or not yet due). */
export function decideReview(ctx: Ctx, holderId: string, outcome: 'pass' | 'reject', description?: string): unknown {
  const holder = ctx.state.holders.get(holderId);
  if (!holder) throw notFound('holderId', `cardholder ${holderId} does not exist`);
  if (holder.status === 'pass_audit' || holder.status === 'reject') {
    throw stateError('holderId', `cardholder ${holderId} review is already final (${holder.status})`);
  }
  decide(ctx, holder, outcome, description);
  return holderResultWire(holder);
}
