/**
 * The provider's reference data for a backend and the CLI: regions, cities (v1 flat, v2 as a
 * region/city tree), mobile area codes and occupations, typed by the provider client's schemas.
 * Each list is read from the shared cache (platform/storage/reference-store.ts), which the worker's
 * scheduled refresh keeps current; a list not cached yet is read from the provider once, when this
 * process has the provider settings, and stored for every other process. A cached list is served
 * however old it is: the lists change very rarely, and a refresh that fails keeps the last answer.
 */
import { createProviderClient } from '../provider/client';
import { ProviderConfigError, providerConfig } from '../provider/config';
import {
  REFERENCE_LISTS,
  readReferenceList,
  type ReferenceListName,
  type ReferenceReader,
  type ReferenceRecords,
} from '../provider/reference-lists';
import { ClientErrorTypes } from '../domain/failure-types';
import type { Configuration } from '../platform/config/schema';
import { referenceStoreFor } from '../platform/storage/from-config';
import type { ReferenceStore } from '../platform/storage/reference-store';

export type Region = ReferenceRecords<'regions'>[number];
export type City = ReferenceRecords<'cities'>[number];
export type CityNode = ReferenceRecords<'cities-v2'>[number];
export type MobileAreaCode = ReferenceRecords<'mobile-area-codes'>[number];
export type Occupation = ReferenceRecords<'occupations'>[number];

/** A list as read: its records, when the provider gave them, and whether this call read it. */
export interface ReferenceList<N extends ReferenceListName> {
  list: N;
  records: ReferenceRecords<N>;
  /** When the provider answered, ms since the epoch. */
  fetchedAt: number;
  /** `cache`: the shared cache had it; `provider`: read now (and stored). */
  source: 'cache' | 'provider';
}

/** A list could be read neither from the cache nor from the provider; `reason` says why. */
export class ReferenceDataUnavailableError extends Error {
  readonly type = ClientErrorTypes.referenceDataUnavailable;
  constructor(
    readonly list: ReferenceListName,
    readonly reason: string,
  ) {
    super(
      `reference data ${list} cannot be read: ${reason}. The worker's schedule fills the cache; ` +
        '`cardflow reference <list>` with the provider settings fills it now',
    );
    this.name = 'ReferenceDataUnavailableError';
  }
}

export interface ReferenceDataDeps {
  store: ReferenceStore;
  /** Reads a list the cache lacks; absent when this process has no provider settings. */
  provider?: ReferenceReader;
  /** Why there is no provider, for the error that needed one. */
  noProvider?: string;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * List `name` from the cache, or else from the provider (then stored). Throws
 * {@link ReferenceDataUnavailableError} when neither answers.
 */
export async function readList<N extends ReferenceListName>(
  deps: ReferenceDataDeps,
  name: N,
): Promise<ReferenceList<N>> {
  let missing = 'it is not cached yet';
  try {
    const cached = await deps.store.get(name);
    if (cached) {
      const parsed = REFERENCE_LISTS[name].schema.safeParse(cached.records);
      if (parsed.success)
        return {
          list: name,
          records: parsed.data as ReferenceRecords<N>,
          fetchedAt: cached.fetchedAt,
          source: 'cache',
        };
      missing = 'the cached copy does not match its schema';
    }
  } catch (error) {
    missing = `the cache cannot be read (${messageOf(error)})`;
  }
  if (!deps.provider)
    throw new ReferenceDataUnavailableError(name, `${missing}, and ${deps.noProvider ?? 'no provider is set'}`);
  let read: Awaited<ReturnType<typeof readReferenceList<N>>>;
  try {
    read = await readReferenceList(deps.provider, name);
  } catch (error) {
    throw new ReferenceDataUnavailableError(name, `${missing}, and the provider did not answer (${messageOf(error)})`);
  }
  // A cache that cannot be written costs only a read of the provider next time: the answer stands.
  await deps.store.put(name, read).catch(() => undefined);
  return { list: name, ...read, source: 'provider' };
}

/**
 * List `name` read from the provider now and stored over the cached copy; throws
 * {@link ReferenceDataUnavailableError} without a provider or when it does not answer.
 */
export async function refreshList<N extends ReferenceListName>(
  deps: ReferenceDataDeps,
  name: N,
): Promise<ReferenceList<N>> {
  if (!deps.provider) throw new ReferenceDataUnavailableError(name, deps.noProvider ?? 'no provider is set');
  let read: Awaited<ReturnType<typeof readReferenceList<N>>>;
  try {
    read = await readReferenceList(deps.provider, name);
  } catch (error) {
    throw new ReferenceDataUnavailableError(name, `the provider did not answer (${messageOf(error)})`);
  }
  await deps.store.put(name, read);
  return { list: name, ...read, source: 'provider' };
}

/** The typed reads; `region` (alpha-2) picks one region's cities. */
export interface ReferenceData {
  regions(): Promise<Region[]>;
  cities(opts?: { region?: string }): Promise<City[]>;
  citiesV2(opts?: { region?: string }): Promise<CityNode[]>;
  mobileAreaCodes(): Promise<MobileAreaCode[]>;
  occupations(): Promise<Occupation[]>;
  /** One list with where and when it was read. */
  list<N extends ReferenceListName>(name: N): Promise<ReferenceList<N>>;
  /** One list read from the provider now, replacing the cached copy. */
  refresh<N extends ReferenceListName>(name: N): Promise<ReferenceList<N>>;
  close(): Promise<void>;
}

/** The reads over `deps`; `close` runs `onClose`. */
export function referenceData(deps: ReferenceDataDeps, onClose: () => Promise<void> = async () => {}): ReferenceData {
  const records = async <N extends ReferenceListName>(name: N) => (await readList(deps, name)).records;
  const inRegion = <T extends { country: string }>(rows: T[], region?: string) =>
    region === undefined ? rows : rows.filter((row) => row.country === region);
  return {
    regions: () => records('regions'),
    cities: async (opts = {}) => inRegion(await records('cities'), opts.region),
    citiesV2: async (opts = {}) => inRegion(await records('cities-v2'), opts.region),
    mobileAreaCodes: () => records('mobile-area-codes'),
    occupations: () => records('occupations'),
    list: (name) => readList(deps, name),
    refresh: (name) => refreshList(deps, name),
    close: onClose,
  };
}

/**
 * The reads from the configuration: the cache it names (PostgreSQL with CARDFLOW_DATABASE_URL,
 * else CARDFLOW_REFERENCE_DIR) and, when CARDFLOW_PROVIDER_* are set, the provider for a list not
 * cached yet. A backend without the provider settings reads what the workers cached.
 */
export function openReferenceData(config: Configuration): ReferenceData {
  const store = referenceStoreFor(config);
  let provider: ReturnType<typeof createProviderClient> | undefined;
  let noProvider: string | undefined;
  try {
    provider = createProviderClient(providerConfig(config));
  } catch (error) {
    if (!(error instanceof ProviderConfigError)) throw error;
    noProvider = 'this process has no provider settings (CARDFLOW_PROVIDER_BASE_URL, ..._API_KEY, the keys)';
  }
  return referenceData(
    { store, ...(provider ? { provider } : {}), ...(noProvider ? { noProvider } : {}) },
    async () => {
      await provider?.close();
      await store.close();
    },
  );
}
