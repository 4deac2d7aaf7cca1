/**
 * The libraries every workflow run would otherwise evaluate anew. The SDK gives each run its own
 * copy of every module it loads (reusable V8 context), so the workflow bundle's imports run once
 * per workflow started or replayed on a worker: three times per onboarding, and zod's modules were
 * most of it (most of the workflow thread's time and much of the GC). Modules in the bundle's
 * `preloadModules` (workers/create-worker.ts) run once per worker and are shared, deep-frozen, by
 * every run.
 *
 * Only libraries without per-workflow state belong here. Freezing also breaks a library's values
 * that it fills in lazily, which is why zod's lazy globals are filled in below, before the worker
 * freezes them (cardflow's own schemas, whose methods zod builds on first use, are settled before
 * sharing in shared-schemas.ts). For the same reason workflow schemas use their own patterns
 * (`.regex(...)`, provider/schemas/fields.ts), not zod's built-in string formats (`z.email()`,
 * `z.ipv4()`, ...): those check with zod's shared RegExp, whose `lastIndex` a frozen copy cannot
 * reset. test/unit/workflows/shared-libraries.test.ts freezes these as the worker does.
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import { Decimal } from 'decimal.js';
import { LosslessNumber } from 'lossless-json';
import { z } from 'zod';

// Installed by zod on first use otherwise (English messages, the memoizer of containers, whether
// it may compile parsers), into objects a workflow would then find frozen.
z.config(z.locales.en());
z.config({ memoizer: z.core.memoizer() });
void z.core.util.allowsEval.value;

/** Referenced by value, so the bundler keeps every import. */
export const sharedLibraries = [sha256, bytesToHex, Decimal, LosslessNumber, z];
