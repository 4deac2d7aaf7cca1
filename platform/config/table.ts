/**
 * README's configuration table, generated from the schema (platform/config/schema.ts): one row per
 * variable, in the schema's order. `npm run config-table` writes it between the markers; a unit
 * test fails when README holds another text.
 */
import { VARIABLES } from './schema';
import { defaultText, type Variable } from './variable';

export const TABLE_START =
  '<!-- config-table:start (generated from platform/config/schema.ts by npm run config-table) -->';
export const TABLE_END = '<!-- config-table:end -->';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The table's Markdown, header included. */
export function configurationTable(): string {
  const rows = (Object.entries(VARIABLES) as [string, Variable][]).map(([name, v]) => {
    const names = v.fileForm ? `\`${name}\` / \`${name}_FILE\`` : `\`${name}\``;
    return `| ${names} | ${cell(v.description)} | ${cell(defaultText(v))} | ${cell(v.readBy)} |`;
  });
  return ['| variable | meaning | default | read by |', '|---|---|---|---|', ...rows].join('\n');
}

/**
 * `readme` with the text between the markers replaced by the table; throws when a marker is
 * missing.
 */
export function withConfigurationTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md: the markers ${TABLE_START} and ${TABLE_END} are missing`);
  return `${readme.slice(0, start + TABLE_START.length)}\n\n${configurationTable()}\n\n${readme.slice(end)}`;
}
