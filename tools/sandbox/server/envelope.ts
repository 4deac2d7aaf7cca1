/**
 * The provider's response envelope `{success, code, msg, data}` (spec, "Response envelope")
 * and how the sandbox writes it: serialized with `stringifyJson` (19-digit ids and amounts
 * keep their digits) and signed with the platform private key over the exact body bytes
 * (provider-notes, Responses).
 */
import type { ServerResponse } from 'node:http';
import type { KeyObject } from 'node:crypto';
import { stringifyJson } from '../../../provider/json';
import { SIGNATURE_HEADER, signBody } from '../../../provider/signing';

export interface Envelope {
  success: boolean;
  code: number;
  msg: string | null;
  data: unknown;
}

export function successEnvelope(data: unknown): Envelope {
  return { success: true, code: 200, msg: 'Success', data: data === undefined ? null : data };
}

export function failureEnvelope(code: number, msg: string): Envelope {
  return { success: false, code, msg, data: null };
}

/**
 * Serializes, signs and sends an envelope. HTTP 200 for every envelope except injected/internal
 * errors (500).
 */
export function sendEnvelope(
  res: ServerResponse,
  envelope: Envelope,
  platformPrivateKey: KeyObject,
  httpStatus = 200,
): void {
  const body = Buffer.from(stringifyJson(envelope), 'utf8');
  res.writeHead(httpStatus, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(body.length),
    [SIGNATURE_HEADER]: signBody(body, platformPrivateKey),
  });
  res.end(body);
}
