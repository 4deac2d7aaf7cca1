/**
 * The libraries every workflow run would otherwise evaluate anew: the SDK gives each run its own
 * copy of each module, so the bundle's imports ran three times per onboarding, zod most of it.
 * Modules in the bundle's `preloadModules` (workers/create-worker.ts) run once per worker and are
 * shared, deep-frozen. Only stateless libraries belong here; values a library fills in lazily are
 * filled in below before the freeze, and workflow schemas use their own `.regex(...)` patterns
 * rather than zod's string formats, whose shared RegExp a frozen copy cannot reset
 * (docs/architecture.md, "Module cost per run").
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
