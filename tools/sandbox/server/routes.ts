/**
 * The route table, derived from the operation registry (`provider/operations.ts`): every operation
 * answers POST at its path, so a path is written exactly once (docs/architecture.md).
 */
import type { OperationDef } from '../../../provider/operation';

export type OperationRegistry = Readonly<Record<string, OperationDef>>;

/**
 * Path prefix of the sandbox's own endpoints (test helpers, faults, webhooks); never a provider
 * path.
 */
export const HELPER_PREFIX = '/sandbox/';

export interface RouteTable {
  /** The operation at a path (query string and trailing slash ignored). */
  operationAt(path: string): OperationDef | undefined;
  readonly size: number;
}

/** Normalizes a request URL to its path: no query, no trailing slash. */
export function pathOf(url: string | undefined): string {
  const raw = (url ?? '/').split('?')[0] ?? '/';
  return raw.length > 1 ? raw.replace(/\/+$/, '') : raw;
}

export function buildRoutes(registry: OperationRegistry): RouteTable {
  const byPath = new Map<string, OperationDef>();
  for (const [key, op] of Object.entries(registry)) {
    if (op.name !== key) throw new Error(`operation registry: key ${key} holds operation ${op.name}`);
    const path = pathOf(op.path);
    const clash = byPath.get(path);
    if (clash) throw new Error(`operation registry: ${op.name} and ${clash.name} share the path ${path}`);
    if (path.startsWith(HELPER_PREFIX))
      throw new Error(`operation registry: ${op.name} uses the sandbox helper prefix`);
    byPath.set(path, op);
  }
  return { operationAt: (path) => byPath.get(pathOf(path)), size: byPath.size };
}
