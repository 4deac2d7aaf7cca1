/**
 * Reference data: regions, cities, mobile area codes (spec: Reference data). Rarely changes; cache
 * locally.
 */
import { z } from 'zod';
import { MOBILE_AREA_LANGUAGES } from '../rules';
import { alpha2, codeText, oneOf } from './fields';
import { bool } from './primitives';

export const RegionSchema = z.object({
  /** alpha-2. */
  code: z.string(),
  /** alpha-3. */
  standardCode: z.string(),
  name: z.string(),
});

export const CitySchema = z.object({
  code: codeText,
  name: z.string(),
  /** alpha-2. */
  country: z.string(),
  /** alpha-3; in the later listing's example. */
  countryStandardCode: z.string().nullish(),
});

export interface CityNode {
  code: string;
  name: string;
  country: string;
  countryStandardCode?: string | null | undefined;
  /** "0" at the top level (province/state/region). */
  parentCode: string;
  children?: CityNode[] | null | undefined;
}

/** Hierarchical city list (v2): top-level regions with their cities as children. */
export const CityNodeSchema: z.ZodType<CityNode, unknown> = z.object({
  code: codeText,
  name: z.string(),
  country: z.string(),
  countryStandardCode: z.string().nullish(),
  parentCode: codeText,
  get children() {
    return z.array(CityNodeSchema).nullish();
  },
});

export const MobileAreaCodeSchema = z.object({
  /** Such as +1. */
  code: z.string(),
  name: z.string(),
  /** alpha-2. */
  areaCode: z.string(),
  language: oneOf(MOBILE_AREA_LANGUAGES),
  enableGlobalTransfer: bool,
});

// ---------------------------------------------------------------------------
// Requests

/** City list (v1 and v2): optional alpha-2 region filter. */
export const ListCitiesRequestSchema = z.object({ regionCode: alpha2.optional() });
