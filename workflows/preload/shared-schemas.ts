/**
 * cardflow's own zod schemas that workflow code uses, built once per worker and shared, frozen,
 * by every run, like shared-libraries.ts (built per run they cost a quarter of the workflow
 * thread's CPU). Sharing is replay-safe: a schema is a pure function of its definition. What a
 * frozen copy cannot do is what zod fills in on first use, so {@link settleSchema} does it first:
 * it reads every lazily defined getter, parses `undefined` once (zod's memoizer replaces the parse
 * function), and hands each `.regex(...)` check its pattern through a Proxy the freeze cannot
 * reach (the check writes `lastIndex`). test/unit/workflows/shared-libraries.test.ts freezes these
 * as the worker does and parses through them.
 */
import * as cardholderRequests from '../../provider/schemas/cardholder-requests';
import * as apiFields from '../../provider/schemas/fields';
import * as primitives from '../../provider/schemas/primitives';
import * as cardholderData from '../../domain/cardholder-data';
import * as domainFields from '../../domain/fields';
import * as holderDocuments from '../../domain/holder-documents';
import * as notifications from '../../domain/notifications';
import * as onboardingFunding from '../../domain/onboarding-funding';
import * as onboardingPhysical from '../../domain/onboarding-physical';
import * as waitProfile from '../../domain/wait-profile';
import * as workflowDefinition from '../../domain/workflow-definition';
// Last, so the shared modules above load first, as before the registry named the rest.
import { WORKFLOW_MODULES } from '../../domain/workflows';

type Bag = Record<string | symbol, unknown>;

const isObject = (value: unknown): value is Bag =>
  value !== null && (typeof value === 'object' || typeof value === 'function');

/** A RegExp every check can still set `lastIndex` on once the schema holding it is frozen. */
function unfreezable(pattern: RegExp): RegExp {
  // A copy: the pattern itself is often an exported constant, frozen with its module.
  return new Proxy(new RegExp(pattern.source, pattern.flags), {
    preventExtensions: () => false,
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set: (target, key, value) => Reflect.set(target, key, value, target),
  });
}

/**
 * Reads every getter on `target`'s prototype chain, so what it defines on first read is defined
 * now.
 */
function readGetters(target: Bag): void {
  for (let proto = Object.getPrototypeOf(target) as Bag | null; proto && proto !== Object.prototype;) {
    for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
      if (!descriptor.get) continue;
      try {
        void target[key];
      } catch {
        // A getter that throws defines nothing either way.
      }
    }
    proto = Object.getPrototypeOf(proto) as Bag | null;
  }
}

/**
 * Fills in what zod builds on first use, in `value` and everything reachable from it (see above).
 */
export function settleSchema(value: unknown, seen = new WeakSet<object>()): void {
  if (!isObject(value) || seen.has(value) || value instanceof RegExp) return;
  seen.add(value);
  const internals = value._zod;
  if (isObject(internals)) {
    readGetters(internals);
    const def = internals.def;
    if (isObject(def) && def.pattern instanceof RegExp) def.pattern = unfreezable(def.pattern);
    // A container's first parse replaces its own parse function (zod's memoizer); any input does,
    // and through the internals no error object is built.
    const run = internals.run;
    if (typeof run === 'function') {
      try {
        (run as (payload: unknown, context: unknown) => unknown)({ value: undefined, issues: [] }, { async: false });
      } catch {
        // A transform refusing undefined has still been through its first parse.
      }
    }
  }
  if (typeof value === 'function') return;
  for (const key of Object.getOwnPropertyNames(value)) {
    let descriptor = Object.getOwnPropertyDescriptor(value, key);
    // An own getter (an object def's `shape`) may replace itself with its value on first read.
    if (descriptor?.get) {
      try {
        void value[key];
      } catch {
        continue;
      }
      descriptor = Object.getOwnPropertyDescriptor(value, key);
    }
    if (descriptor && 'value' in descriptor) settleSchema(descriptor.value, seen);
  }
}

/**
 * The modules whose schemas are shared: those several workflows build on, then each registered
 * workflow's own (domain/workflows.ts `WORKFLOW_MODULES`), so registering a workflow preloads it.
 * Referenced by value, so the bundler keeps every import.
 */
export const sharedSchemaModules = [
  apiFields,
  primitives,
  cardholderRequests,
  holderDocuments,
  cardholderData,
  domainFields,
  onboardingFunding,
  onboardingPhysical,
  notifications,
  waitProfile,
  workflowDefinition,
  ...WORKFLOW_MODULES,
];

for (const module of sharedSchemaModules) {
  for (const exported of Object.values(module)) {
    // Workflow code calls methods (`safeParse`) on exported schemas only; zod's parsing reads the
    // internals settled below, so methods are built for these alone (about a hundred per schema).
    if (isObject(exported) && isObject(exported._zod)) readGetters(exported);
    settleSchema(exported);
  }
}
