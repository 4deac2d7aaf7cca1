/**
 * The strict base64 the provider uses for keys, signatures and encrypted values: the standard
 * alphabet, padded to a multiple of 4, never URL-safe.
 */
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64 check (not empty, length a multiple of 4, alphabet only). */
export function isBase64(text: string): boolean {
  return text.length > 0 && text.length % 4 === 0 && BASE64_RE.test(text);
}
