/**
 * The secrets scan of what operators see besides histories and logs: scraped Prometheus texts and
 * exported spans. Each is reduced to the fields it carries (a metric's name, help and label values;
 * a span's name, attributes, events, links, status message, scope and resource), and the fields
 * are searched with the history scan's own matching (history-scan.ts `foundIn`, `holdsCvv`): a
 * value of digits counts only as a whole number, the CVV only as a CVV.
 */
import type { OtlpAttribute, OtlpRequest, OtlpValue } from '../../cluster/support/otlp-receiver';
import { foundIn, holdsCvv } from '../platform/codec/history-scan';

/** A value no metric, span or log line may hold, and what it is (named in a find). */
export interface Secret {
  what: string;
  value: string;
}

export interface SecretsToFind {
  values: Secret[];
  /** A card's CVV, found as a whole field or beside its expiry (history-scan.ts `holdsCvv`). */
  cvv?: { cvv: string; expiry: string };
}

/** Fields of one output, and where they came from (named in a find). */
export interface ScannedOutput {
  where: string;
  fields: string[];
}

/**
 * The text a document's bytes would leave behind: the distinctive run `marker` (which `data`
 * holds) as text, in hex, and as base64 (a slice of the whole document's base64, aligned to its
 * 3-byte groups, so it is found in any base64 of the document).
 */
export function documentSecrets(name: string, data: Buffer, marker: string): Secret[] {
  const run = Buffer.from(marker, 'latin1');
  const at = data.indexOf(run);
  if (at < 0) throw new Error(`document ${name} does not hold its marker`);
  const from = Math.ceil(at / 3) * 3;
  const to = Math.floor((at + run.length) / 3) * 3;
  if (to - from < 12) throw new Error(`document ${name}: the marker is too short to find in base64`);
  return [
    { what: `${name} bytes`, value: marker },
    { what: `${name} bytes in hex`, value: run.toString('hex') },
    { what: `${name} bytes in base64`, value: data.subarray(from, to).toString('base64') },
  ];
}

/** Unescapes a Prometheus label value (`\\`, `\"`, `\n`). */
function labelValue(escaped: string): string {
  return escaped.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
}

/**
 * The fields of a Prometheus text exposition: each sample's metric name and label values, and the
 * HELP and TYPE lines. Numbers are left out (sample values, and bucket bounds `le` and `quantile`):
 * a 6-digit PIN or a CVV turns up by chance among byte counts and bounds.
 */
export function metricFields(exposition: string): string[] {
  const fields: string[] = [];
  for (const line of exposition.split('\n')) {
    if (line.startsWith('#')) {
      fields.push(line);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s/.exec(line);
    if (!sample) continue;
    fields.push(sample[1]!);
    for (const [, name, value] of (sample[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      if (name !== 'le' && name !== 'quantile') fields.push(labelValue(value!));
  }
  return fields;
}

/** Every scalar an attribute value holds; bytes both as sent (base64) and decoded. */
function valueFields(value: OtlpValue | undefined): string[] {
  if (!value) return [];
  const fields: string[] = [];
  for (const scalar of [value.stringValue, value.intValue, value.boolValue, value.doubleValue])
    if (scalar !== undefined) fields.push(String(scalar));
  if (value.bytesValue !== undefined)
    fields.push(value.bytesValue, Buffer.from(value.bytesValue, 'base64').toString('latin1'));
  for (const item of value.arrayValue?.values ?? []) fields.push(...valueFields(item));
  fields.push(...attributeFields(value.kvlistValue?.values));
  return fields;
}

function attributeFields(attributes: OtlpAttribute[] | undefined): string[] {
  return (attributes ?? []).flatMap((a) => [a.key, ...valueFields(a.value)]);
}

/**
 * The outputs of OTLP export requests: one per span (its name, attributes, events, links, status
 * message and scope), one per resource; trace and span ids and timestamps are left out.
 */
export function spanOutputs(requests: readonly OtlpRequest[]): ScannedOutput[] {
  const outputs: ScannedOutput[] = [];
  for (const request of requests) {
    for (const resourceSpans of request.resourceSpans ?? []) {
      const resource = attributeFields(resourceSpans.resource?.attributes);
      const service = resource[resource.indexOf('service.name') + 1] ?? '?';
      outputs.push({ where: `the resource of ${service}`, fields: resource });
      for (const scope of resourceSpans.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          outputs.push({
            where: `span "${span.name}" of ${service}`,
            fields: [
              span.name,
              scope.scope?.name ?? '',
              scope.scope?.version ?? '',
              ...attributeFields(span.attributes),
              ...(span.events ?? []).flatMap((e) => [e.name ?? '', ...attributeFields(e.attributes)]),
              ...(span.links ?? []).flatMap((l) => attributeFields(l.attributes)),
              span.status?.message ?? '',
            ],
          });
    }
  }
  return outputs;
}

/** Each secret an output holds: `<where> holds <what>`, one line per find. */
export function secretsIn(outputs: readonly ScannedOutput[], secrets: SecretsToFind): string[] {
  const finds: string[] = [];
  const values = secrets.values.map((s) => s.value);
  for (const { where, fields } of outputs) {
    const text = fields.join('\n');
    for (const value of foundIn(text, values))
      for (const secret of secrets.values.filter((s) => s.value === value)) finds.push(`${where} holds ${secret.what}`);
    const { cvv } = secrets;
    if (cvv && (fields.includes(cvv.cvv) || holdsCvv(text, cvv.cvv, cvv.expiry))) finds.push(`${where} holds the CVV`);
  }
  return finds;
}
