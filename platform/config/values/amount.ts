/**
 * The rule of a decimal amount, shared by the configuration's floors, the provider's client and
 * the workflows' inputs. Free of Node so that workflow code may import it.
 */

/** A decimal amount as the program carries it: a string, never a JS number (`"10.50"`; no sign). */
export const AMOUNT_RE = /^(0|[1-9]\d*)(\.\d+)?$/;
