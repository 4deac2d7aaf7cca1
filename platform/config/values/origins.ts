/**
 * The rule of `CARDFLOW_CODEC_SERVER_ORIGINS`: the browser origins allowed to call the codec
 * server, each exactly `scheme://host[:port]` as a browser sends it in `Origin`. Here, at the
 * bottom of the layering, so that the configuration schema checks it without reaching the server.
 */

/** The comma-separated origins; throws an Error naming the first that is not an exact origin. */
export function parseOrigins(raw: string): readonly string[] {
  return raw.split(',').map((item) => {
    const origin = item.trim();
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new Error(`"${origin}" is not an origin like https://temporal-ui.example.com`);
    }
    if (parsed.origin !== origin)
      throw new Error(`"${origin}" must be exactly scheme://host[:port] (did you mean ${parsed.origin}?)`);
    return origin;
  });
}
