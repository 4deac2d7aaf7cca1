/**
 * Cities (spec, "Reference data"): a two-level tree (province/state with parentCode "0",
 * then cities) and the flat city list derived from its leaves. A cardholder's `town` must be
 * a code from the flat list.
 */
import { REGIONS } from './regions';

export interface City {
  code: string;
  name: string;
  country: string;
  countryStandardCode: string;
}

export interface CityNode extends City {
  parentCode: string;
  children: CityNode[];
}

/** country -> [state/province, cities...] */
const TREE: Record<string, [string, ...string[]][]> = {
  US: [
    ['California', 'Los Angeles', 'San Francisco', 'San Diego', 'San Jose'],
    ['New York', 'New York City', 'Buffalo', 'Albany'],
    ['Texas', 'Houston', 'Austin', 'Dallas'],
    ['Washington', 'Seattle', 'Spokane'],
    ['Florida', 'Miami', 'Orlando', 'Tampa'],
  ],
  GB: [
    ['England', 'London', 'Manchester', 'Birmingham', 'Bristol'],
    ['Scotland', 'Edinburgh', 'Glasgow'],
    ['Wales', 'Cardiff'],
  ],
  HK: [
    ['Hong Kong Island', 'Central and Western', 'Wan Chai', 'Eastern'],
    ['Kowloon', 'Yau Tsim Mong', 'Kowloon City'],
    ['New Territories', 'Sha Tin', 'Tsuen Wan'],
  ],
  SG: [['Singapore', 'Singapore']],
  DE: [
    ['Berlin', 'Berlin'],
    ['Bavaria', 'Munich', 'Nuremberg'],
    ['Hesse', 'Frankfurt am Main'],
    ['Hamburg', 'Hamburg'],
  ],
  FR: [
    ['Ile-de-France', 'Paris'],
    ['Provence-Alpes-Cote d Azur', 'Marseille', 'Nice'],
    ['Auvergne-Rhone-Alpes', 'Lyon'],
  ],
  JP: [
    ['Tokyo', 'Shinjuku', 'Shibuya', 'Minato'],
    ['Osaka', 'Osaka'],
    ['Kanagawa', 'Yokohama'],
  ],
  CN: [
    ['Guangdong', 'Guangzhou', 'Shenzhen'],
    ['Shanghai', 'Shanghai'],
    ['Beijing', 'Beijing'],
  ],
  CA: [
    ['Ontario', 'Toronto', 'Ottawa'],
    ['British Columbia', 'Vancouver'],
    ['Quebec', 'Montreal'],
  ],
  AU: [
    ['New South Wales', 'Sydney'],
    ['Victoria', 'Melbourne'],
  ],
  NL: [['North Holland', 'Amsterdam']],
  ES: [
    ['Madrid', 'Madrid'],
    ['Catalonia', 'Barcelona'],
  ],
  IT: [
    ['Lazio', 'Rome'],
    ['Lombardy', 'Milan'],
  ],
  CH: [
    ['Zurich', 'Zurich'],
    ['Geneva', 'Geneva'],
  ],
  AE: [
    ['Dubai', 'Dubai'],
    ['Abu Dhabi', 'Abu Dhabi'],
  ],
  KR: [['Seoul', 'Seoul']],
  TW: [['Taipei', 'Taipei']],
  MY: [['Kuala Lumpur', 'Kuala Lumpur']],
  TH: [['Bangkok', 'Bangkok']],
  PH: [['Metro Manila', 'Manila', 'Makati']],
  ID: [['Jakarta', 'Jakarta']],
  VN: [
    ['Ho Chi Minh City', 'Ho Chi Minh City'],
    ['Hanoi', 'Hanoi'],
  ],
  BR: [
    ['Sao Paulo', 'Sao Paulo'],
    ['Rio de Janeiro', 'Rio de Janeiro'],
  ],
  MX: [['Mexico City', 'Mexico City']],
  NZ: [['Auckland', 'Auckland']],
  IE: [['Leinster', 'Dublin']],
  SE: [['Stockholm', 'Stockholm']],
  PT: [['Lisbon', 'Lisbon']],
  PL: [['Masovia', 'Warsaw']],
  IN: [
    ['Maharashtra', 'Mumbai'],
    ['Karnataka', 'Bengaluru'],
  ],
  RU: [['Moscow', 'Moscow']],
  UA: [
    ['Kyiv', 'Kyiv'],
    ['Crimea', 'Simferopol'],
  ],
};

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * Two-level city nodes; codes are `<alpha-2><state 2 digits>` and `<alpha-2><state><city 2
 * digits>`.
 */
export const CITY_TREE: readonly CityNode[] = Object.entries(TREE).flatMap(([country, states]) => {
  const countryStandardCode = REGIONS.find((r) => r.code === country)?.standardCode ?? country;
  return states.map(([state, ...cities], si) => {
    const stateCode = `${country}${pad(si + 1)}`;
    return {
      code: stateCode,
      name: state,
      country,
      countryStandardCode,
      parentCode: '0',
      children: cities.map((name, ci) => ({
        code: `${stateCode}${pad(ci + 1)}`,
        name,
        country,
        countryStandardCode,
        parentCode: stateCode,
        children: [],
      })),
    };
  });
});

/** Flat list: every city (leaf) of the tree. */
export const CITIES: readonly City[] = CITY_TREE.flatMap((state) =>
  state.children.map(({ code, name, country, countryStandardCode }) => ({ code, name, country, countryStandardCode })),
);

export function cityByCode(code: string): City | undefined {
  return CITIES.find((c) => c.code === code);
}

/** Cities in a restricted sub-region (Crimea): refused like a restricted country. */
export const RESTRICTED_CITY_PARENTS: ReadonlySet<string> = new Set(
  CITY_TREE.filter((s) => s.name === 'Crimea').map((s) => s.code),
);
