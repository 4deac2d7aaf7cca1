/**
 * The thin integration's provider client: what an engineer writes by hand against the spec in a
 * day. One pooled undici connection set, the body signed with node:crypto (SHA256withRSA over its
 * bytes, provider notes), the answer's signature verified, `JSON.parse` and no schemas. Long ids
 * go out as digit strings, which the provider's Long fields take; coming back, integers of 16
 * digits or more are quoted before `JSON.parse`, since a plain parse corrupts the ids the
 * integration sends back (a holderId, a cardTypeId): the least a working integration does about
 * lossless ids.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { Pool } from 'undici';

export interface ThinProviderSettings {
  baseUrl: string;
  apiKey: string;
  /** base64 PKCS#8 DER, as the provider's dashboard hands it out. */
  merchantPrivateKey: string;
  /** base64 X.509 SubjectPublicKeyInfo DER. */
  platformPublicKey: string;
  /** Sees each answer's path and raw bytes (tools/bench/extras-cost.ts records them). */
  onAnswer?: (path: string, raw: Buffer) => void;
}

/** The provider's answer envelope. */
interface Envelope<T> {
  success: boolean;
  code: number;
  msg: string | null;
  data: T;
}

const derPrivate = (base64: string) =>
  createPrivateKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'pkcs8' });
export const derPublic = (base64: string): KeyObject =>
  createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });

/** Quotes integers of 16 or more digits (ids past 2^53) so `JSON.parse` keeps them exact. */
export const parseKeepingIds = <T>(text: string): T =>
  JSON.parse(text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,}\]])/g, '$1"$2"')) as T;

export function thinProvider(settings: ThinProviderSettings) {
  const pool = new Pool(settings.baseUrl, { connections: 16, pipelining: 1 });
  const privateKey = derPrivate(settings.merchantPrivateKey);
  const platformKey = derPublic(settings.platformPublicKey);

  /** POSTs `params` to `path`, signed; the envelope's `data` once its signature checks out. */
  async function call<T>(path: string, params: object): Promise<T> {
    const body = Buffer.from(JSON.stringify(params));
    const response = await pool.request({
      path,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-wsb-api-key': settings.apiKey,
        'x-wsb-signature': sign('sha256', body, privateKey).toString('base64'),
      },
      body,
    });
    const raw = Buffer.from(await response.body.arrayBuffer());
    settings.onAnswer?.(path, raw);
    const signature = response.headers['x-wsb-signature'];
    if (typeof signature !== 'string' || !verify('sha256', raw, platformKey, Buffer.from(signature, 'base64')))
      throw new Error(`${path}: answer (HTTP ${response.statusCode}) without a valid signature`);
    const envelope = parseKeepingIds<Envelope<T>>(raw.toString('utf8'));
    if (envelope.code !== 200) throw new Error(`${path}: ${envelope.code} ${envelope.msg ?? ''}`);
    return envelope.data;
  }

  const base = '/merchant/core/mcb';
  return {
    listCardTypes: () => call<Array<{ cardTypeId: string; rechargeCurrency: string }>>(`${base}/card/v2/cardTypes`, {}),
    getAccountInfo: () =>
      call<Array<{ accountId: string; accountType: string; currency: string; availableBalance: string }>>(
        `${base}/account/info`,
        {},
      ),
    createCardholder: (params: Record<string, string>) =>
      call<{ holderId: string; status: string }>(`${base}/card/holder/v2/create`, params),
    createCard: (params: { merchantOrderNo: string; cardTypeId: string; holderId: string; amount: string }) =>
      call<{ cardNo: string | null; status: string }>(`${base}/card/v2/createCard`, params),
    listCardTransactions: (params: { merchantOrderNo: string }) =>
      call<{ records: Array<{ merchantOrderNo: string; cardNo: string | null; status: string }> }>(
        `${base}/card/v2/transaction`,
        { pageNum: 1, pageSize: 10, ...params },
      ),
    getCardInfo: (params: { cardNo: string }) =>
      call<{ cardNo: string; status: string; balanceInfo?: { amount: number; currency: string } }>(
        `${base}/card/info`,
        { ...params, onlySimpleInfo: false },
      ),
    close: () => pool.close(),
  };
}

export type ThinProvider = ReturnType<typeof thinProvider>;
