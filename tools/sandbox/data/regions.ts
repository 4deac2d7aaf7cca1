/**
 * Countries / regions (spec, "Reference data": code alpha-2, standardCode alpha-3, name).
 * The list includes some restricted countries, as the provider's does; the cardholder rules
 * refuse them (`RESTRICTED_REGIONS` in provider/rules.ts).
 */

export interface Region {
  code: string;
  standardCode: string;
  name: string;
}

export const REGIONS: readonly Region[] = [
  ['US', 'USA', 'United States'],
  ['GB', 'GBR', 'United Kingdom'],
  ['HK', 'HKG', 'Hong Kong'],
  ['SG', 'SGP', 'Singapore'],
  ['DE', 'DEU', 'Germany'],
  ['FR', 'FRA', 'France'],
  ['JP', 'JPN', 'Japan'],
  ['CN', 'CHN', 'China'],
  ['CA', 'CAN', 'Canada'],
  ['AU', 'AUS', 'Australia'],
  ['NL', 'NLD', 'Netherlands'],
  ['ES', 'ESP', 'Spain'],
  ['IT', 'ITA', 'Italy'],
  ['CH', 'CHE', 'Switzerland'],
  ['AE', 'ARE', 'United Arab Emirates'],
  ['KR', 'KOR', 'South Korea'],
  ['TW', 'TWN', 'Taiwan'],
  ['MY', 'MYS', 'Malaysia'],
  ['TH', 'THA', 'Thailand'],
  ['PH', 'PHL', 'Philippines'],
  ['ID', 'IDN', 'Indonesia'],
  ['VN', 'VNM', 'Vietnam'],
  ['BR', 'BRA', 'Brazil'],
  ['MX', 'MEX', 'Mexico'],
  ['NZ', 'NZL', 'New Zealand'],
  ['IE', 'IRL', 'Ireland'],
  ['SE', 'SWE', 'Sweden'],
  ['PT', 'PRT', 'Portugal'],
  ['PL', 'POL', 'Poland'],
  ['IN', 'IND', 'India'],
  ['RU', 'RUS', 'Russia'],
  ['IR', 'IRN', 'Iran'],
  ['KP', 'PRK', 'North Korea'],
  ['CU', 'CUB', 'Cuba'],
  ['NG', 'NGA', 'Nigeria'],
  ['UA', 'UKR', 'Ukraine'],
  ['BY', 'BLR', 'Belarus'],
  ['ZA', 'ZAF', 'South Africa'],
  ['EG', 'EGY', 'Egypt'],
  ['VE', 'VEN', 'Venezuela'],
].map(([code, standardCode, name]) => ({ code: code!, standardCode: standardCode!, name: name! }));

export function regionByCode(code: string): Region | undefined {
  return REGIONS.find((r) => r.code === code);
}
