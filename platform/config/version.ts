import { readFileSync } from 'node:fs';
import path from 'node:path';

/** cardflow's version: from its package.json, found upwards from this file (source or compiled). */
export function cardflowVersion(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      // `cardflow` in a checkout or the image, `@cardflow/client` when installed by a backend.
      if ((pkg.name === 'cardflow' || pkg.name === '@cardflow/client') && pkg.version) return pkg.version;
    } catch {
      // not here: look one folder up
    }
  }
  return 'unknown';
}
