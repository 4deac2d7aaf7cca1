/**
 * Identity documents and the helpers that decide orders: the upload takes a file by the provider
 * client's own rule, a cardholder naming an unreadable document is rejected with a reason naming
 * that field, a correction naming another file passes, `uploadedFiles` shows who names each
 * upload, and `decideOperation` / `decideWorkOrder` find an order by either of its numbers.
 */
import { SandboxErrorCode } from '../../../../tools/sandbox/contract';
import { MOBILE_AREA_CODES } from '../../../../tools/sandbox/data/area-codes';
import { CARD_TYPES } from '../../../../tools/sandbox/data/card-types';
import { UNREADABLE_DOCUMENT } from '../../../../tools/sandbox/engine/magic';
import { b2cHolder, magicOrderNo, PNG, subscriptionCard } from './fixtures';
import { createHarness, type Harness } from './harness';

const pdf = (text: string) => ({
  filename: 'doc.pdf',
  contentType: 'application/pdf',
  data: new TextEncoder().encode(`%PDF-1.4\n% ${text}\n%%EOF\n`),
});

function refusedUpload(h: Harness, file: { filename: string; contentType: string; data: Uint8Array }) {
  try {
    h.engine.handle('uploadFile', { category: 'card' }, file);
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error('the upload was accepted');
}

describe('file upload', () => {
  it.each([
    ['another extension', { ...PNG, filename: 'id.gif' }, 'file.filename: extension must be one of jpg, png, pdf'],
    [
      'another content type',
      { ...PNG, contentType: 'image/gif' },
      'file.contentType: content type must be one of image/jpeg, image/png, application/pdf',
    ],
    [
      'bytes of another kind than the name says',
      { ...pdf('x'), filename: 'id.png', contentType: 'image/png' },
      'file.data: extension (png), content type (png) and content (pdf) must agree',
    ],
    [
      'no known kind at all',
      { ...PNG, data: new Uint8Array([0x4d, 0x5a, 0x90]) },
      'file.data: content is not a jpg, png, pdf file',
    ],
    ['more than 2 MiB', { ...PNG, data: new Uint8Array(2 * 1024 * 1024 + 1).fill(0x89, 0, 1) }, /^file\.data: /],
  ])('refuses %s with 40002 naming the part', (_what, file, message) => {
    const error = refusedUpload(createHarness(), file);
    expect(error.code).toBe(SandboxErrorCode.parameter);
    expect(error.message).toMatch(message);
  });

  it("keeps each upload's metadata and content hash, and who names it", async () => {
    const h = createHarness();
    const holder = b2cHolder(h, 'docs.named@example.com');
    const created = h.call('createCardholder', holder);
    const { files } = (await h.helper('uploadedFiles')) as {
      files: { fileId: string; sha256: string; size: unknown; referencedBy: { holderId: string; field: string }[] }[];
    };
    expect(files).toHaveLength(3);
    expect(files.map((f) => f.referencedBy)).toEqual([
      [{ holderId: created.holderId, field: 'idFrontId' }],
      [{ holderId: created.holderId, field: 'idBackId' }],
      [{ holderId: created.holderId, field: 'idHoldId' }],
    ]);
    expect(Number(files[0]!.size)).toBe(PNG.data.byteLength);
    expect(files[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(files)).not.toContain('data');
  });
});

describe('a document the review cannot read', () => {
  it('rejects the holder at the platform, naming the field; a correction with another file passes', async () => {
    const h = createHarness();
    const unreadable = h.call(
      'uploadFile',
      { category: 'card', file: pdf(UNREADABLE_DOCUMENT) },
      pdf(UNREADABLE_DOCUMENT),
    );
    const holder = b2cHolder(h, 'docs.unreadable@example.com', { idBackId: unreadable.fileId });
    const created = h.call('createCardholder', holder);
    await h.settle();
    const rejected = h.call('queryCardholders', { pageNum: 1, pageSize: 10, holderId: created.holderId }).records[0]!;
    expect(rejected).toMatchObject({ status: 'reject', statusFlowLocation: 'admin' });
    expect(rejected.respMsg).toBe(
      `idBackId: the document in file ${unreadable.fileId} cannot be read; upload a clear image`,
    );

    const clear = h.call('uploadFile', { category: 'card', file: pdf('clear') }, pdf('clear'));
    const { merchantOrderNo: _n, cardTypeId: _t, ...fields } = holder;
    h.call('updateCardholder', { ...fields, holderId: created.holderId, idBackId: clear.fileId });
    await h.settle();
    expect(
      h.call('queryCardholders', { pageNum: 1, pageSize: 10, holderId: created.holderId }).records[0],
    ).toMatchObject({
      status: 'pass_audit',
    });
  });
});

describe('deciding an order by either of its numbers', () => {
  it('decideOperation takes the orderNo or the merchantOrderNo, never neither or both', async () => {
    const h = createHarness();
    const cardNo = subscriptionCard(h);
    await h.settle();
    const stalled = h.call('freezeCard', { cardNo, merchantOrderNo: magicOrderNo('_STALL') });
    await h.settle();
    const merchantOrderNo = stalled.merchantOrderNo;
    await expect(h.helper('decideOperation', { outcome: 'success' })).rejects.toMatchObject({
      code: SandboxErrorCode.parameter,
      message: 'orderNo: give the orderNo or the merchantOrderNo of the order (exactly one)',
    });
    await expect(
      h.helper('decideOperation', { orderNo: stalled.orderNo, merchantOrderNo, outcome: 'success' }),
    ).rejects.toMatchObject({ code: SandboxErrorCode.parameter });
    expect(await h.helper('decideOperation', { merchantOrderNo, outcome: 'success' })).toMatchObject({
      orderNo: stalled.orderNo,
      status: 'success',
    });
  });

  it('decideWorkOrder takes the merchantOrderNo', async () => {
    const h = createHarness();
    const merchantOrderNo = magicOrderNo('_STALL');
    h.call('submitWorkOrder', { merchantOrderNo, title: 'Question', target: 'account', tradeType: 'OTHER' });
    await h.clock.advance(60_000);
    expect(await h.helper('decideWorkOrder', { merchantOrderNo, outcome: 'success' })).toMatchObject({
      merchantOrderNo,
      tradeStatus: 'success',
    });
  });
});

it('every area code a card type supports is a code of the mobile area code list', () => {
  const codes = new Set(MOBILE_AREA_CODES.map((m) => m.code));
  for (const type of CARD_TYPES) expect(type.supportHolderAreaCode.filter((c) => !codes.has(c))).toEqual([]);
});
