/**
 * `npm run config-table`: writes README's configuration table from platform/config/schema.ts,
 * between its markers (platform/config/table.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { entryPointArgs } from '../../platform/config/command-line';
import { withConfigurationTable } from '../../platform/config/table';

export const README_FILE = path.join(__dirname, '..', '..', 'README.md');

if (require.main === module) {
  entryPointArgs({
    name: 'npm run config-table',
    summary: "writes README.md's configuration table from platform/config/schema.ts, between its markers",
  });
  writeFileSync(README_FILE, withConfigurationTable(readFileSync(README_FILE, 'utf8')));
  console.log(README_FILE);
}
