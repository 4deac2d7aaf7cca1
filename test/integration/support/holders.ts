/**
 * The integration tier's holders: the shared sample B2B holder (test/fixtures/holders.ts) and
 * unique emails for it.
 */
export { b2bHolder } from '../../fixtures/holders';

export function uniqueEmail(local: string): string {
  return `${local}+${Math.random().toString(36).slice(2, 10)}@example.com`;
}
