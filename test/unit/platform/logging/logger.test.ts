import { context as otelContext, trace as otelTrace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { LosslessNumber } from 'lossless-json';
import { parseLogLevel } from '../../../../platform/config/values/log-level';
import { createLogger, formatRecord } from '../../../../platform/logging/logger';
import { REDACTED, isRedactedField, redact, scrubText } from '../../../../platform/logging/redact';

/** Personal and card values that must never appear in a log line. */
const secrets = {
  cardNumber: '4111111111111111',
  cvv: '737',
  pin: '924681',
  firstName: 'Zoltana',
  lastName: 'Quibbleworth',
  email: 'zoltana.q@example.org',
  mobile: '5550199887',
  birthday: '1987-03-14',
  idNumber: 'P99887766',
  signature: 'c2lnbmF0dXJlLWJ5dGVz',
  apiKey: 'ak_live_supersecret',
};

function captureLogger() {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'DEBUG',
    write: (line) => lines.push(line),
    now: () => new Date('2026-01-02T03:04:05.000Z'),
  });
  return { lines, logger };
}

describe('redact', () => {
  it('replaces listed fields at any depth, in arrays and header objects, and keeps the rest', () => {
    const input = {
      workflowId: 'holder-onboarding-42',
      request: {
        headers: {
          'X-WSB-SIGNATURE': secrets.signature,
          'x-wsb-api-key': secrets.apiKey,
          'Content-Type': 'application/json',
        },
        body: {
          holderInfo: { firstName: secrets.firstName, lastName: secrets.lastName, country: 'US' },
          cards: [{ cardNo: 'C-1', cardNumber: secrets.cardNumber, cvv: secrets.cvv }],
        },
      },
    };
    expect(redact(input)).toEqual({
      workflowId: 'holder-onboarding-42',
      request: {
        headers: { 'X-WSB-SIGNATURE': REDACTED, 'x-wsb-api-key': REDACTED, 'Content-Type': 'application/json' },
        body: {
          holderInfo: { firstName: REDACTED, lastName: REDACTED, country: 'US' },
          cards: [{ cardNo: 'C-1', cardNumber: REDACTED, cvv: REDACTED }],
        },
      },
    });
  });

  it('covers the card data, personal data, keys and signatures of the spec', () => {
    const required = [
      ...['cardNumber', 'cvv', 'expireDate', 'validPeriod', 'pin', 'activeCode', 'activateUrl', 'values'],
      ...['firstName', 'lastName', 'email', 'mobile', 'birthday', 'idNumber', 'address', 'postCode', 'ipAddress'],
      ...['privateKey', 'apiKey', 'signature', 'X-WSB-SIGNATURE', 'X-WSB-API-KEY', 'authorization'],
    ];
    expect(required.filter((name) => !isRedactedField(name))).toEqual([]);
  });

  it('matches names regardless of case, dashes and underscores', () => {
    for (const name of ['CardNumber', 'card_number', 'x_wsb_signature', 'xWsbApiKey', 'AUTHORIZATION', 'ip-address'])
      expect(isRedactedField(name)).toBe(true);
    for (const name of ['cardNo', 'holderId', 'merchantOrderNo', 'status', 'amount'])
      expect(isRedactedField(name)).toBe(false);
  });

  it('does not mutate its input, cuts cycles and writes numbers exactly', () => {
    const input: Record<string, unknown> = {
      pin: secrets.pin,
      amount: new LosslessNumber('10.50'),
      holderId: 1989887271659823105n,
    };
    input.self = input;
    const out = redact(input) as Record<string, unknown>;
    expect(input.pin).toBe(secrets.pin);
    expect(out).toEqual({ pin: REDACTED, amount: '10.50', holderId: '1989887271659823105', self: '[Circular]' });
  });

  it('redacts inside errors (own fields and cause) and scrubs card numbers and e-mails from their messages', () => {
    const cause = Object.assign(new Error('upstream'), { email: secrets.email });
    const error = Object.assign(
      new Error(`email ${secrets.email} already used for card 4111 1111 1111 1111`, { cause }),
      { idNumber: secrets.idNumber },
    );
    const text = JSON.stringify(redact({ error }));
    for (const value of [secrets.email, secrets.idNumber, '4111 1111 1111 1111']) expect(text).not.toContain(value);
    expect(text).toContain('already used for card');
  });

  it('leaves 19-digit ids and non-Luhn numbers readable in free text', () => {
    expect(scrubText('holder 1989887271659823105 order 4111111111111112')).toBe(
      'holder 1989887271659823105 order 4111111111111112',
    );
    expect(scrubText(`pan ${secrets.cardNumber}.`)).toBe(`pan ${REDACTED}.`);
  });
});

describe('createLogger', () => {
  it('writes one JSON line with level, time, msg and the ids given', () => {
    const { lines, logger } = captureLogger();
    logger.info('deposit started', { workflowId: 'card-deposit-7', runId: 'r-1', activityId: '3' });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      level: 'info',
      time: '2026-01-02T03:04:05.000Z',
      msg: 'deposit started',
      workflowId: 'card-deposit-7',
      runId: 'r-1',
      activityId: '3',
    });
  });

  it('never prints a redacted value, in fields, child fields or the message', () => {
    const { lines, logger } = captureLogger();
    const child = logger.child({ workflowId: 'holder-onboarding-9', holder: { email: secrets.email } });
    child.warn(`review rejected for ${secrets.email}`, {
      input: { ...secrets, nested: [{ birthday: secrets.birthday, mobile: secrets.mobile }] },
    });
    child.error('provider call failed', {
      error: Object.assign(new Error('bad request'), { request: { pin: secrets.pin } }),
    });
    const output = lines.join('\n');
    for (const value of Object.values(secrets)) expect(output).not.toContain(value);
    expect(JSON.parse(lines[0]!).input.firstName).toBe(REDACTED);
    expect(JSON.parse(lines[0]!).workflowId).toBe('holder-onboarding-9');
  });

  it('filters by level and serves as the Temporal Runtime logger (log(level, message, meta) with the SDK timestamp symbol)', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'WARN', write: (line) => lines.push(line) });
    logger.info('dropped');
    logger.log('ERROR', 'core failure', {
      sdkComponent: 'core',
      [Symbol.for('log_timestamp')]: 1_700_000_000_123_000_000n,
      taskQueue: 'cardflow',
    });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      level: 'error',
      time: '2023-11-14T22:13:20.123Z',
      msg: 'core failure',
      sdkComponent: 'core',
      taskQueue: 'cardflow',
    });
  });

  it('keeps its own fields when metadata uses the same names', () => {
    const record = JSON.parse(formatRecord('INFO', 'm', { msg: 'other', level: 'x' }, () => new Date(0)));
    expect(record).toMatchObject({ level: 'info', msg: 'm', 'meta.msg': 'other', 'meta.level': 'x' });
  });

  it('takes its default level from CARDFLOW_LOG_LEVEL, read by the configuration rule', () => {
    const saved = process.env.CARDFLOW_LOG_LEVEL;
    try {
      process.env.CARDFLOW_LOG_LEVEL = 'error';
      expect(createLogger().level).toBe('ERROR');
      expect(createLogger({ level: 'DEBUG' }).level).toBe('DEBUG');
      delete process.env.CARDFLOW_LOG_LEVEL;
      expect(createLogger().level).toBe('INFO');
      process.env.CARDFLOW_LOG_LEVEL = 'loud';
      expect(() => createLogger()).toThrow(/CARDFLOW_LOG_LEVEL: must be one of/);
    } finally {
      if (saved === undefined) delete process.env.CARDFLOW_LOG_LEVEL;
      else process.env.CARDFLOW_LOG_LEVEL = saved;
    }
  });

  it('reads level names and refuses unknown ones', () => {
    expect(parseLogLevel('warn')).toBe('WARN');
    expect(() => parseLogLevel('loud', 'CARDFLOW_LOG_LEVEL')).toThrow(
      'CARDFLOW_LOG_LEVEL "loud" is not one of TRACE, DEBUG, INFO, WARN, ERROR',
    );
  });
});

describe('trace context', () => {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  beforeAll(() => otelContext.setGlobalContextManager(contextManager));
  afterAll(() => {
    otelContext.disable();
    contextManager.disable();
  });
  const spanContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 };

  it('every line written inside a span carries its trace and span ids; lines outside carry none', async () => {
    const { lines, logger } = captureLogger();
    const child = logger.child({ component: 'webhooks' });
    logger.info('before');
    await otelContext.with(
      otelTrace.setSpan(otelContext.active(), otelTrace.wrapSpanContext(spanContext)),
      async () => {
        logger.info('inside');
        await Promise.resolve();
        child.warn('inside, after an await, from a child logger');
      },
    );
    logger.info('after');
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const traced = { trace_id: spanContext.traceId, span_id: spanContext.spanId, trace_flags: '01' };
    expect(records[0]).not.toHaveProperty('trace_id');
    expect(records[1]).toMatchObject({ msg: 'inside', ...traced });
    expect(records[2]).toMatchObject({ component: 'webhooks', ...traced });
    expect(records[3]).not.toHaveProperty('trace_id');
  });

  it("keeps the ids a workflow's line brings (its own span, through the SDK's log sink)", () => {
    const { lines, logger } = captureLogger();
    otelContext.with(otelTrace.setSpan(otelContext.active(), otelTrace.wrapSpanContext(spanContext)), () =>
      logger.info('from a workflow', { trace_id: 'aaaabbbbccccddddeeeeffff00001111', span_id: '1111222233334444' }),
    );
    expect(JSON.parse(lines[0]!)).toMatchObject({
      trace_id: 'aaaabbbbccccddddeeeeffff00001111',
      span_id: '1111222233334444',
    });
  });
});
