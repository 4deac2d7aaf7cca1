/**
 * `OTEL_RESOURCE_ATTRIBUTES`, as OpenTelemetry's SDK environment specification defines it:
 * `key=value` pairs separated by commas, each value percent-decoded (a comma or `=` inside a
 * value is written `%2C`, `%3D`). A pair without `=`, an empty key or a bad escape is refused,
 * naming the pair, rather than dropped as some SDKs do: a deployment's attributes are how its
 * traces are found.
 */
export function parseResourceAttributes(raw: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const pair of raw.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const key = at < 0 ? '' : pair.slice(0, at).trim();
    if (!key) throw new Error(`"${pair}" must be key=value (pairs separated by commas)`);
    try {
      attributes[key] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      throw new Error(`the value of ${key} has a bad percent escape`);
    }
  }
  return attributes;
}
