/**
 * The provider's reference data through the client, from the sandbox over HTTP, cached in the
 * shared store on files and on PostgreSQL alike: a cold cache reads the provider once and stores
 * the answer every other process then reads; a refresh replaces the copy; `cardflow reference`
 * prints each list, one region's cities, the v2 tree, and refuses bad usage.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProviderClient, type ProviderClient } from '../../../provider/client';
import { referenceData, type ReferenceDataDeps } from '../../../client/reference-data';
import { runCli } from '../../../client/cli/main';
import { createPostgresReferenceStore } from '../../../platform/storage/postgres-reference-store';
import { createFileReferenceStore, type ReferenceStore } from '../../../platform/storage/reference-store';
import { CITIES, CITY_TREE } from '../../../tools/sandbox/data/cities';
import { OCCUPATIONS } from '../../../tools/sandbox/data/occupations';
import { startSandbox, ZERO_DELAYS, type RunningSandbox } from '../../../tools/sandbox';
import { type TestPostgres, startTestPostgres } from '../support/postgres';

jest.setTimeout(90_000);

let sandbox: RunningSandbox;
let provider: ProviderClient;
let pg: TestPostgres;
const opened: ReferenceStore[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ delays: ZERO_DELAYS });
  provider = createProviderClient(sandbox.clientConfig());
  pg = await startTestPostgres();
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});
afterAll(async () => {
  await provider.close();
  await sandbox.stop();
  await pg?.stop();
});

/** The provider client, counting the reference reads it makes. */
function counted(): ReferenceDataDeps['provider'] & { reads: number } {
  const counter = {
    reads: 0,
    listRegions: (...a: Parameters<ProviderClient['listRegions']>) => (counter.reads++, provider.listRegions(...a)),
    listCities: (...a: Parameters<ProviderClient['listCities']>) => (counter.reads++, provider.listCities(...a)),
    listCityTree: (...a: Parameters<ProviderClient['listCityTree']>) => (counter.reads++, provider.listCityTree(...a)),
    listMobileAreaCodes: (...a: Parameters<ProviderClient['listMobileAreaCodes']>) => (
      counter.reads++,
      provider.listMobileAreaCodes(...a)
    ),
    listOccupations: (...a: Parameters<ProviderClient['listOccupations']>) => (
      counter.reads++,
      provider.listOccupations(...a)
    ),
  };
  return counter;
}

const stores: [string, () => Promise<() => ReferenceStore>][] = [
  [
    'files',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cardflow-reference-'));
      return () => createFileReferenceStore(dir);
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const url = await pg.database();
      return () => createPostgresReferenceStore(url);
    },
  ],
];

describe.each(stores)('on %s', (_name, shared) => {
  it('reads a cold list from the provider once; every process then reads the stored answer', async () => {
    const storeFor = await shared();
    const open = () => {
      const store = storeFor();
      opened.push(store);
      return store;
    };
    const reads = counted();
    const backend = referenceData({ store: open(), provider: reads });
    const first = await backend.list('cities');
    expect(first.source).toBe('provider');
    expect(first.records.map((c) => c.code).sort()).toEqual(CITIES.map((c) => c.code).sort());
    // Another process, without provider settings, reads the same list from the shared store.
    const other = referenceData({ store: open(), noProvider: 'no provider here' });
    const cached = await other.list('cities');
    expect(cached).toMatchObject({ source: 'cache', fetchedAt: first.fetchedAt });
    expect(cached.records).toEqual(first.records);
    expect(await other.cities({ region: 'GB' })).toEqual(first.records.filter((c) => c.country === 'GB'));
    // The v2 tree keeps its two levels through the store.
    const tree = await backend.citiesV2({ region: 'US' });
    expect(await other.citiesV2({ region: 'US' })).toEqual(tree);
    expect(tree[0]?.children?.length).toBe(CITY_TREE.find((n) => n.country === 'US')?.children.length);
    expect(reads.reads).toBe(2);
  });

  it('a refresh replaces the stored copy', async () => {
    const store = (await shared())();
    opened.push(store);
    await store.put('occupations', { records: [{ occupationCode: 'old', description: 'Old' }], fetchedAt: 1_000 });
    const data = referenceData({ store, provider: counted() });
    expect((await data.occupations()).map((o) => o.occupationCode)).toEqual(['old']);
    const refreshed = await data.refresh('occupations');
    expect(refreshed.fetchedAt).toBeGreaterThan(1_000);
    expect(await store.get('occupations')).toEqual({ records: OCCUPATIONS, fetchedAt: refreshed.fetchedAt });
    expect(await data.occupations()).toEqual(OCCUPATIONS);
  });
});

describe('cardflow reference', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cardflow-reference-cli-'));
  async function cli(args: string[], env: Record<string, string> = sandbox.env) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['reference', ...args], {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      env: { ...env, CARDFLOW_REFERENCE_DIR: dir },
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('prints each list, reading a cold one from the provider and caching it', async () => {
    const occupations = await cli(['occupations']);
    expect(occupations.code).toBe(0);
    expect(occupations.out).toContain('15-1252  Software Developers');
    expect(occupations.out).toMatch(/\d+ record\(s\); read from the provider \S+ \(now, and cached\)$/);
    // Cached: a process without the provider settings prints it too.
    const cached = await cli(['occupations', '--json'], {});
    expect(cached.code).toBe(0);
    expect(JSON.parse(cached.out)).toEqual(OCCUPATIONS);
    expect((await cli(['regions'])).out).toContain('GB  GBR  United Kingdom');
    expect((await cli(['area-codes'])).out).toContain('+44  GB  United Kingdom');
  });

  it("prints one region's cities, flat or as the v2 tree", async () => {
    const flat = await cli(['cities', '--region', 'GB', '--json']);
    expect(JSON.parse(flat.out)).toEqual(CITIES.filter((c) => c.country === 'GB'));
    const tree = await cli(['cities', '--region', 'GB', '--v2']);
    expect(tree.out.split('\n').slice(0, 2)).toEqual(['GB01  England', '  GB0101  London']);
  });

  it('refuses bad usage, and says plainly when a list cannot be read', async () => {
    expect(await cli(['towns'])).toMatchObject({ code: 2, err: expect.stringContaining('reference needs one of') });
    expect(await cli(['regions', '--region', 'GB'])).toMatchObject({ code: 2 });
    expect(await cli(['cities', '--region', 'gb'])).toMatchObject({ code: 2 });
    const err: string[] = [];
    const cold = await runCli(['reference', 'regions', '--refresh'], {
      out: () => {},
      err: (l) => err.push(l),
      env: { CARDFLOW_REFERENCE_DIR: mkdtempSync(join(tmpdir(), 'cardflow-reference-cold-')) },
    });
    expect(cold).toBe(1);
    expect(err.join('\n')).toMatch(/^reference data regions cannot be read: this process has no provider settings/);
  });
});
