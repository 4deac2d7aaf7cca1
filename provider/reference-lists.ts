/**
 * The provider's reference data as named lists (spec: Reference data; Occupation): for each, the
 * operation that reads it whole and the record schema of its resource, so whoever caches a list
 * (platform/storage/reference-store.ts) parses what it kept with the schema the client parsed the
 * answer with. Cities are read for every region at once, in both listings (v1 flat, v2 as a
 * region/city tree); a region's are picked from them.
 */
import { z } from 'zod';
import type { CallOptions, ProviderClient } from './client';
import { OccupationSchema } from './schemas/cardholder';
import { CityNodeSchema, CitySchema, MobileAreaCodeSchema, RegionSchema } from './schemas/reference';

/** The provider client the reads need: its five reference operations. */
export type ReferenceReader = Pick<
  ProviderClient,
  'listRegions' | 'listCities' | 'listCityTree' | 'listMobileAreaCodes' | 'listOccupations'
>;
type Reader = ReferenceReader;

function list<S extends z.ZodType>(schema: S, read: (provider: Reader, opts: CallOptions) => Promise<z.output<S>[]>) {
  return { schema: z.array(schema), read };
}

/** Every reference list by its name in the cache and the CLI. */
export const REFERENCE_LISTS = {
  regions: list(RegionSchema, (p, o) => p.listRegions({}, o)),
  cities: list(CitySchema, (p, o) => p.listCities({}, o)),
  'cities-v2': list(CityNodeSchema, (p, o) => p.listCityTree({}, o)),
  'mobile-area-codes': list(MobileAreaCodeSchema, (p, o) => p.listMobileAreaCodes({}, o)),
  occupations: list(OccupationSchema, (p, o) => p.listOccupations({}, o)),
} as const;

export type ReferenceListName = keyof typeof REFERENCE_LISTS;
export const REFERENCE_LIST_NAMES = Object.keys(REFERENCE_LISTS) as ReferenceListName[];

/** The records of list `name`, as its schema parses them. */
export type ReferenceRecords<N extends ReferenceListName> = z.output<(typeof REFERENCE_LISTS)[N]['schema']>;

/** Reads list `name` whole from the provider: its records and when they were read. */
export async function readReferenceList<N extends ReferenceListName>(
  provider: ReferenceReader,
  name: N,
  opts: CallOptions = {},
): Promise<{ records: ReferenceRecords<N>; fetchedAt: number }> {
  const records = (await REFERENCE_LISTS[name].read(provider, opts)) as ReferenceRecords<N>;
  return { records, fetchedAt: Date.now() };
}
