/**
 * `cardflow reference regions|cities|area-codes|occupations`: the provider's reference data as the
 * onboarding check reads it (client/reference-data.ts): from the shared cache, or read from the
 * provider once when not cached yet. `--refresh` reads the provider now and replaces the copy.
 */
import { type CityNode, openReferenceData, type ReferenceData, type ReferenceList } from '../reference-data';
import type { ReferenceListName } from '../../provider/reference-lists';
import { type CliContext, type Command, ExitCodes, printResult, UsageError } from './context';

/** The CLI's list names, and the cache's. */
const LISTS = {
  regions: 'regions',
  cities: 'cities',
  'area-codes': 'mobile-area-codes',
  occupations: 'occupations',
} as const;

const ALPHA2 = /^[A-Z]{2}$/;

function treeLines(nodes: readonly CityNode[], depth = 0): string[] {
  return nodes.flatMap((n) => [`${'  '.repeat(depth)}${n.code}  ${n.name}`, ...treeLines(n.children ?? [], depth + 1)]);
}

/** Each record as one line, for people; --json prints the records as the provider gave them. */
function lines(list: ReferenceList<ReferenceListName>): string[] {
  switch (list.list) {
    case 'regions':
      return (list as ReferenceList<'regions'>).records.map((r) => `${r.code}  ${r.standardCode}  ${r.name}`);
    case 'cities':
      return (list as ReferenceList<'cities'>).records.map((c) => `${c.code}  ${c.country}  ${c.name}`);
    case 'cities-v2':
      return treeLines((list as ReferenceList<'cities-v2'>).records);
    case 'mobile-area-codes':
      return (list as ReferenceList<'mobile-area-codes'>).records.map((m) => `${m.code}  ${m.areaCode}  ${m.name}`);
    case 'occupations':
      return (list as ReferenceList<'occupations'>).records.map((o) => `${o.occupationCode}  ${o.description}`);
  }
}

async function show(ctx: CliContext, data: ReferenceData, name: ReferenceListName, region?: string): Promise<void> {
  const read = ctx.values.refresh ? await data.refresh(name) : await data.list(name);
  const records =
    region === undefined
      ? read.records
      : (read.records as { country: string }[]).filter((record) => record.country === region);
  const list = { ...read, records } as ReferenceList<ReferenceListName>;
  printResult(ctx, records, () =>
    [
      ...lines(list),
      `${records.length} record(s); read from the provider ${new Date(read.fetchedAt).toISOString()}` +
        (read.source === 'provider' ? ' (now, and cached)' : ' (cached)'),
    ].join('\n'),
  );
}

export const REFERENCE_COMMAND: Command = {
  name: 'reference',
  usage: [
    'reference regions [--refresh] [--json]',
    'reference cities [--region XX] [--v2] [--refresh] [--json]',
    'reference area-codes [--refresh] [--json]',
    'reference occupations [--refresh] [--json]',
  ],
  summary: "print the provider's reference data an onboarding's holder is checked against",
  details: [
    '',
    'Read from the shared cache (PostgreSQL with CARDFLOW_DATABASE_URL, else CARDFLOW_REFERENCE_DIR),',
    "which the worker's schedule refreshes; a list not cached yet is read from the provider once",
    '(CARDFLOW_PROVIDER_*) and cached. --refresh reads the provider now and replaces the copy.',
    "cities: a holder's town must be the code of a city of its country; --region XX (alpha-2) lists",
    "one region's; --v2 prints the provider's two-level listing (region, then its cities).",
    "area-codes: a holder's areaCode; occupations: a B2C holder's occupation.",
  ],
  options: ['region', 'v2', 'refresh', 'json'],
  run: async (ctx, [which]) => {
    const name = which === undefined ? undefined : LISTS[which as keyof typeof LISTS];
    if (!name) throw new UsageError(`reference needs one of: ${Object.keys(LISTS).join(', ')}`);
    const region = ctx.values.region;
    if (region !== undefined && (name !== 'cities' || !ALPHA2.test(region)))
      throw new UsageError('--region takes an alpha-2 code (US, GB, ...) and goes with cities');
    if (ctx.values.v2 && name !== 'cities') throw new UsageError('--v2 goes with cities');
    const data = openReferenceData(ctx.config);
    try {
      await show(ctx, data, name === 'cities' && ctx.values.v2 ? 'cities-v2' : name, region);
    } finally {
      await data.close();
    }
    return ExitCodes.done;
  },
};
