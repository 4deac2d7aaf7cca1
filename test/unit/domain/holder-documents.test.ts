/**
 * A B2C holder's identity documents named by stored file: each document by fileId or by reference,
 * never both or neither; the holder the provider gets names every document by the fileId its upload
 * returned, and a reference never reaches it.
 */
import { cardholderDataIssues, type B2cCardholder } from '../../../domain/cardholder-data';
import { documentsToUpload, withUploadedDocuments } from '../../../domain/holder-documents';
import { b2cHolder } from '../../fixtures/holders';

const SHA = 'a'.repeat(64);
const withFileIds = b2cHolder({ email: 'grace@example.com', idNumber: 'P1234567', fileIds: ['F1', 'F2', 'F3'] });
const { idFrontId: _f, idHoldId: _h, ...rest } = withFileIds;
/** Front and face photo by stored file, back by the fileId of the backend's own upload. */
const mixed: B2cCardholder = { ...rest, idFrontRef: `${SHA}.png`, idHoldRef: `${'b'.repeat(64)}.jpg` };

it('takes each document by fileId or by stored file', () => {
  expect(cardholderDataIssues(withFileIds)).toEqual([]);
  expect(cardholderDataIssues(mixed)).toEqual([]);
  expect(documentsToUpload(withFileIds)).toEqual([]);
  expect(documentsToUpload(mixed)).toEqual([
    { ref: `${SHA}.png`, refField: 'idFrontRef', fileIdField: 'idFrontId' },
    { ref: `${'b'.repeat(64)}.jpg`, refField: 'idHoldRef', fileIdField: 'idHoldId' },
  ]);
});

it('refuses a document named twice, not at all, or by a reference that is not a stored file', () => {
  const { idBackId: _b, ...noBack } = mixed;
  expect(cardholderDataIssues({ ...mixed, idFrontId: 'F1' })).toEqual([
    { path: 'holder.idFrontRef', message: 'give idFrontId or idFrontRef, not both' },
  ]);
  expect(cardholderDataIssues(noBack as B2cCardholder)).toEqual([
    {
      path: 'holder.idBackId',
      message: "is required: an uploaded file's fileId, or idBackRef, a stored file's reference (storeFile)",
    },
  ]);
  expect(cardholderDataIssues({ ...mixed, idFrontRef: '../secrets.png' })).toEqual([
    { path: 'holder.idFrontRef', message: expect.stringMatching(/^must be a file name in the file store/) },
  ]);
  expect(cardholderDataIssues({ ...mixed, idFrontRef: `${SHA}.gif` })).toEqual([
    { path: 'holder.idFrontRef', message: 'must end in one of .jpg, .jpeg, .png, .pdf' },
  ]);
});

it('sends every document by the fileId its upload returned, and never a reference', () => {
  const sent = withUploadedDocuments(mixed, { [`${SHA}.png`]: 'F10', [`${'b'.repeat(64)}.jpg`]: 'F11' });
  expect(sent).toMatchObject({ idFrontId: 'F10', idBackId: 'F2', idHoldId: 'F11' });
  expect(sent).not.toHaveProperty('idFrontRef');
  expect(sent).not.toHaveProperty('idHoldRef');
  expect(() => withUploadedDocuments(mixed, { [`${SHA}.png`]: 'F10' })).toThrow(
    /idHoldRef: file b+\.jpg was not uploaded/,
  );
});
