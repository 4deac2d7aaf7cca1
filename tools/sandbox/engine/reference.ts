/**
 * Reference data (spec: /common/region, /common/city, /common/v2/city, /common/mobileAreaCode,
 * /card/holder/occupations).
 */
import { MOBILE_AREA_CODES } from '../data/area-codes';
import { CITIES, CITY_TREE } from '../data/cities';
import { OCCUPATIONS } from '../data/occupations';
import { REGIONS } from '../data/regions';
import { optText, type Req } from './request';

export const listRegions = (): unknown => REGIONS.map((r) => ({ ...r }));
export const listMobileAreaCodes = (): unknown => MOBILE_AREA_CODES.map((m) => ({ ...m }));
export const listOccupations = (): unknown => OCCUPATIONS.map((o) => ({ ...o }));

export function listCities(_ctx: unknown, req: Req): unknown {
  const region = optText(req, 'regionCode');
  return CITIES.filter((c) => region === undefined || c.country === region).map((c) => ({ ...c }));
}

export function listCityTree(_ctx: unknown, req: Req): unknown {
  const region = optText(req, 'regionCode');
  return CITY_TREE.filter((s) => region === undefined || s.country === region).map((s) => ({
    ...s,
    children: s.children.map((c) => ({ ...c })),
  }));
}
