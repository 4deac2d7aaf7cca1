/**
 * An onboarding's holder against the provider's reference data, before anything starts: each
 * field refused naming the field, the rule and the list; a valid holder passes; a list that cannot
 * be read refuses the start by default, or lets it through unchecked when the backend says so; a
 * cached list is served without the provider however old it is.
 */
import { Client, Connection } from '@temporalio/client';
import { parseOnboardingInput, InvalidInputError } from '../../../client/validation';
import { checkReferenceData, referenceProblems } from '../../../client/reference-check';
import { referenceData, ReferenceDataUnavailableError, type ReferenceDataDeps } from '../../../client/reference-data';
import { startOnboarding } from '../../../client/onboarding';
import { ClientErrorTypes } from '../../../domain/failure-types';
import type { OnboardingInput } from '../../../domain';
import { createDataConverter } from '../../../platform/codec/data-converter';
import { generateKeyBase64, parseKeyList } from '../../../platform/codec/keys';
import type { ReferenceEntry, ReferenceStore } from '../../../platform/storage/reference-store';
import type { ReferenceReader } from '../../../provider/reference-lists';
import { b2bHolder, b2cHolder, idvHolder } from '../../fixtures/holders';

/** The lists a small provider serves. */
const LISTS = {
  regions: [{ code: 'US', standardCode: 'USA', name: 'United States' }],
  cities: [
    { code: 'US0102', name: 'San Francisco', country: 'US' },
    { code: 'GB0101', name: 'London', country: 'GB' },
  ],
  cityTree: [],
  areaCodes: [
    { code: '+1', name: 'United States', areaCode: 'US', language: 'en_US', enableGlobalTransfer: true },
    { code: '+44', name: 'United Kingdom', areaCode: 'GB', language: 'en_US', enableGlobalTransfer: true },
  ],
  occupations: [{ occupationCode: '15-1252', description: 'Software Developers' }],
};

function memoryStore(): ReferenceStore & { entries: Map<string, ReferenceEntry> } {
  const entries = new Map<string, ReferenceEntry>();
  return {
    entries,
    get: async (list) => entries.get(list),
    put: async (list, entry) => void entries.set(list, entry),
    close: async () => {},
  };
}

/** A provider that counts its reads, or fails every one. */
function provider(opts: { down?: boolean } = {}): ReferenceReader & { reads: number } {
  const answer =
    <T>(rows: T) =>
    async () => {
      counter.reads += 1;
      if (opts.down) throw new Error('connect ECONNREFUSED');
      return rows as never;
    };
  const counter = {
    reads: 0,
    listRegions: answer(LISTS.regions),
    listCities: answer(LISTS.cities),
    listCityTree: answer(LISTS.cityTree),
    listMobileAreaCodes: answer(LISTS.areaCodes),
    listOccupations: answer(LISTS.occupations),
  };
  return counter;
}

const b2c = (overrides: Record<string, string> = {}): OnboardingInput =>
  parseOnboardingInput({
    customerRef: 'acme-ref-1',
    cardTypeId: '1',
    holder: b2cHolder({ email: 'g@example.com', idNumber: 'P1234567', fileIds: ['1', '2', '3'] }, overrides),
  });
const b2b = (overrides: Record<string, string> = {}): OnboardingInput =>
  parseOnboardingInput({ customerRef: 'acme-ref-2', cardTypeId: '1', holder: b2bHolder('a@example.com', overrides) });

const open = (deps: ReferenceDataDeps) => referenceData(deps);

it('passes a holder whose area code, town and occupation are in the lists', async () => {
  const deps = { store: memoryStore(), provider: provider() };
  expect(await referenceProblems(b2c(), open(deps))).toEqual([]);
  expect(await referenceProblems(b2b(), open(deps))).toEqual([]);
  expect(
    await referenceProblems(
      parseOnboardingInput({ customerRef: 'acme-ref-3', cardTypeId: '1', holder: idvHolder('i@example.com') }),
      open(deps),
    ),
  ).toEqual([]);
});

it('refuses each wrong field naming the field, the rule and the list', async () => {
  const deps = { store: memoryStore(), provider: provider() };
  expect(await referenceProblems(b2b({ town: 'XYZ' }), open(deps))).toEqual([
    'holder.town: is not a city code of region US (reference data: cities)',
  ]);
  // A city code of another country is refused too: the town must be in the holder's country.
  expect(await referenceProblems(b2b({ town: 'GB0101' }), open(deps))).toEqual([
    'holder.town: is not a city code of region US (reference data: cities)',
  ]);
  expect(await referenceProblems(b2b({ areaCode: '+999' }), open(deps))).toEqual([
    'holder.areaCode: is not a mobile area code (reference data: mobile-area-codes)',
  ]);
  expect(await referenceProblems(b2c({ occupation: '99-9999' }), open(deps))).toEqual([
    'holder.occupation: is not an occupation code (reference data: occupations)',
  ]);
  // "44" and "+44" name one area code.
  expect(await referenceProblems(b2c({ areaCode: '44' }), open(deps))).toEqual([]);
});

it('reads a cold list from the provider once and serves it from the cache after', async () => {
  const store = memoryStore();
  const reads = provider();
  const first = await open({ store, provider: reads }).list('occupations');
  expect(first).toMatchObject({ source: 'provider', records: LISTS.occupations });
  expect(store.entries.get('occupations')?.records).toEqual(LISTS.occupations);
  const again = await open({ store, provider: reads }).list('occupations');
  expect(again).toMatchObject({ source: 'cache', records: LISTS.occupations, fetchedAt: first.fetchedAt });
  expect(reads.reads).toBe(1);
});

it('serves a cached list however old, with the provider down', async () => {
  const store = memoryStore();
  await store.put('occupations', { records: LISTS.occupations, fetchedAt: 0 });
  const down = provider({ down: true });
  expect(await open({ store, provider: down }).list('occupations')).toMatchObject({ source: 'cache', fetchedAt: 0 });
  expect(down.reads).toBe(0);
});

describe('a list that cannot be read at all', () => {
  it('refuses the start by default, naming the list and why', async () => {
    const deps = { store: memoryStore(), provider: provider({ down: true }) };
    const error = await checkReferenceData(b2b(), () => open(deps)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReferenceDataUnavailableError);
    expect(error).toMatchObject({ type: ClientErrorTypes.referenceDataUnavailable, list: 'mobile-area-codes' });
    expect((error as Error).message).toMatch(
      /^reference data mobile-area-codes cannot be read: it is not cached yet, and the provider did not answer \(connect ECONNREFUSED\)/,
    );
    const noProvider = await checkReferenceData(b2b(), () =>
      open({ store: memoryStore(), noProvider: 'this process has no provider settings' }),
    ).catch((e: unknown) => e);
    expect((noProvider as Error).message).toContain('it is not cached yet, and this process has no provider settings');
  });

  it('lets the start through unchecked when the backend chose so, saying which list and why', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const deps = { store: memoryStore(), provider: provider({ down: true }) };
      const check = await checkReferenceData(b2b(), () => open(deps), 'start-unchecked');
      expect(check.unchecked).toMatchObject({ list: 'mobile-area-codes' });
      expect(check.unchecked?.reason).toContain('the provider did not answer');
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('acme-ref-2: going on without the reference check'));
      // A wrong value is still refused when the lists can be read: the choice covers outages only.
      const readable = { store: memoryStore(), provider: provider() };
      await expect(checkReferenceData(b2b({ town: 'XYZ' }), () => open(readable), 'start-unchecked')).rejects.toThrow(
        InvalidInputError,
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('needs no list for an input without a holder', async () => {
    const opened = jest.fn();
    const input = parseOnboardingInput({ customerRef: 'acme-ref-4', cardTypeId: '1' });
    expect(await checkReferenceData(input, opened)).toEqual({});
    expect(opened).not.toHaveBeenCalled();
  });
});

it('startOnboarding refuses a wrong town before Temporal is asked to start anything', async () => {
  // Nothing listens at this address: a start would fail with a connection error, not this one.
  const client = new Client({
    connection: Connection.lazy({ address: '127.0.0.1:1' }),
    dataConverter: createDataConverter(parseKeyList(`k1:${generateKeyBase64()}`)),
  });
  const start = jest.spyOn(client.workflow, 'start');
  const deps = { store: memoryStore(), provider: provider() };
  const error = await startOnboarding(client, b2b({ town: 'XYZ' }), {
    referenceData: open(deps),
    whileUnavailable: { limitMs: 0 },
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InvalidInputError);
  expect((error as InvalidInputError).problems).toEqual([
    'holder.town: is not a city code of region US (reference data: cities)',
  ]);
  expect(start).not.toHaveBeenCalled();
  // The same input with a listed town goes on to the start.
  start.mockRejectedValueOnce(new Error('no server here'));
  await expect(
    startOnboarding(client, b2b(), { referenceData: open(deps), whileUnavailable: { limitMs: 0 } }),
  ).rejects.toThrow('no server here');
  expect(start).toHaveBeenCalledTimes(1);
});
