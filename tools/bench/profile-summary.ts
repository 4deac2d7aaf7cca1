/**
 * `npx tsx tools/bench/profile-summary.ts <file.cpuprofile> [top]`: the self time of a V8 CPU
 * profile (from `node --cpu-prof --cpu-prof-dir=<dir> --import tsx tools/bench/main.ts`: one per
 * thread) by what cardflow's throughput is made of, then the costliest functions. A function is put
 * in the category of the first frame on its stack (itself, then its callers) whose file says what
 * it is, so a JSON.parse called by the sandbox counts as sandbox work and one called by the SDK's
 * client as Temporal's.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const NODE_INTERNALS = 'node internals not called from JS above (event loop, sockets, streams, timers)';

/** Categories by file, first match wins; the order puts the specific before the general. */
const CATEGORIES: Array<[string, RegExp]> = [
  [
    'signing and decryption (provider/signing, provider/sensitive, @noble)',
    /\/provider\/(signing|sensitive|keys)|@noble\//,
  ],
  ['payload codec (platform/codec/)', /\/codec\//],
  [
    'provider client (provider/client, provider/http, undici)',
    /\/provider\/(client|http|transport|errors|pagination)|undici/,
  ],
  [
    'schemas and JSON (zod, lossless-json, provider/json, provider/schemas)',
    /zod|lossless-json|\/provider\/(json|schemas)\//,
  ],
  ['sandbox (provider stand-in)', /\/sandbox\//],
  ['webhook receiver (webhooks/)', /\/webhooks\//],
  ['activities (activities/)', /\/activities\//],
  [
    'Temporal client (@temporalio/client, grpc-js, protobuf)',
    /@temporalio\/(client|common|proto)|@grpc\/|protobufjs|long\//,
  ],
  ['Temporal worker bridge (@temporalio/worker, core-bridge)', /@temporalio\/(worker|core-bridge|activity)/],
  ['bench harness', /\/bench\//],
  [
    'workflow bundle (workflow code, its schemas and libraries, the SDK inside the sandbox)',
    /workflow-bundle-|evalmachine/,
  ],
  [NODE_INTERNALS, /^node:/],
];

const category = (url: string): string | undefined => CATEGORIES.find(([, re]) => re.test(url))?.[0];

export function summarize(profile: Profile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const categoryOf = (id: number): string => {
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    if (name === '(garbage collector)') return 'garbage collection';
    if (name === '(idle)') return 'idle';
    if (name === '(program)') return 'V8/native (program)';
    // Node's own frames (sockets, streams, crypto bindings) count for the code that called them.
    let nodeInternal = false;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const found = category(byId.get(at)!.callFrame.url);
      if (found === NODE_INTERNALS) nodeInternal = true;
      else if (found) return found;
    }
    if (nodeInternal) return NODE_INTERNALS;
    return node.callFrame.url ? 'other JS' : 'native (no JS frame)';
  };
  const cats = new Map<string, number>();
  const fns = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of self) {
    const cat = categoryOf(id);
    cats.set(cat, (cats.get(cat) ?? 0) + us);
    if (cat === 'idle') continue;
    busy += us;
    const f = byId.get(id)!.callFrame;
    const where = f.url
      ? `${f.url.replace(/^.*\/(node_modules\/|cardflow\/|throughput\/)/, '')}:${f.lineNumber + 1}`
      : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
  }
  const total = [...cats.values()].reduce((a, b) => a + b, 0);
  const pct = (us: number, of: number) => `${((100 * us) / of).toFixed(1)}%`.padStart(6);
  const lines = [
    `profile: ${(total / 1e6).toFixed(2)} s sampled, ${(busy / 1e6).toFixed(2)} s busy (${pct(busy, total).trim()})`,
    'self time by category (share of busy time):',
  ];
  for (const [cat, us] of [...cats].sort((a, b) => b[1] - a[1]))
    if (cat !== 'idle') lines.push(`  ${pct(us, busy)}  ${(us / 1000).toFixed(0).padStart(6)} ms  ${cat}`);
  lines.push(`top ${top} functions by self time:`);
  for (const [fn, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${pct(us, busy)}  ${(us / 1000).toFixed(0).padStart(6)} ms  ${fn}`);
  return lines.join('\n');
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: tsx tools/bench/profile-summary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  console.log(summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile, top ? Number(top) : 25));
}
