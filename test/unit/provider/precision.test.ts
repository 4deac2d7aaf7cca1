/**
 * 19-digit ids and decimal amounts stay exact from the wire, through money arithmetic, back to the
 * wire.
 */
import { z } from 'zod';
import { parseJson, stringifyJson } from '../../../provider/json';
import { add, depositFee, sub } from '../../../provider/money';
import { decimal, longId, reqDecimal, reqLong } from '../../../provider/schemas/primitives';

const Wire = z.object({ accountId: longId, a: decimal, b: decimal });
const Request = z.object({ accountId: reqLong, amount: reqDecimal });

describe('precision through parse → money → stringify', () => {
  it('keeps a 19-digit id and makes 0.1 + 0.2 exactly 0.3', () => {
    const text = '{"accountId":1989887271659823105,"a":0.1,"b":0.2}';
    expect(String((JSON.parse(text) as { accountId: number }).accountId)).not.toBe('1989887271659823105'); // the corruption we avoid
    const parsed = Wire.parse(parseJson(text));
    expect(parsed.accountId).toBe('1989887271659823105');
    const sum = add(parsed.a, parsed.b);
    expect(sum).toBe('0.3');
    const request = Request.parse({ accountId: parsed.accountId, amount: sum });
    expect(stringifyJson(request)).toBe('{"accountId":1989887271659823105,"amount":0.3}');
  });

  it('keeps amounts written as strings or in exponent form', () => {
    const parsed = Wire.parse(parseJson('{"accountId":"19847563867367666","a":"10.50","b":1.5E+3}'));
    expect(parsed).toEqual({ accountId: '19847563867367666', a: '10.50', b: '1500' });
    expect(sub(parsed.b, parsed.a)).toBe('1489.5');
  });

  it('computes the deposit fee exactly and rounds it up', () => {
    // 100.10 × 1.5% = 1.5015 → 1.51 (rounded up), + 0.30 fixed
    expect(depositFee('100.10', '1.5', '0.30', 2)).toBe('1.81');
    // 0.1 × 100% + 0.2 is exactly 0.30, not 0.30000000000000004
    expect(depositFee('0.1', '100', '0.2', 2)).toBe('0.30');
  });

  it('refuses a JS number for an amount in a request', () => {
    expect(Request.safeParse({ accountId: '1', amount: 0.3 }).success).toBe(false);
  });
});
