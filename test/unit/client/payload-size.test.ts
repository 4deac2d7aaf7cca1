/**
 * The input's encoded size is checked against Temporal's payload limit before a start
 * (client/payload-size.ts, used by every lifecycle start through startOnce and by
 * startOnboarding): refused as invalid input naming the largest fields, never sent to the server,
 * which would answer "Blob data size exceeds limit" naming none.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { startOnboarding } from '../../../client/onboarding';
import { startOnce } from '../../../client/start';
import { checkPayloadSize, PAYLOAD_LIMIT_BYTES } from '../../../client/payload-size';
import { InvalidInputError } from '../../../client/validation';
import { createDataConverter } from '../../../platform/codec/data-converter';
import { generateKeyBase64, parseKeyList } from '../../../platform/codec/keys';
import { WorkflowTypes } from '../../../domain/workflows';

const client = new Client({
  connection: Connection.lazy({ address: '127.0.0.1:1' }),
  dataConverter: createDataConverter(parseKeyList(`k1:${generateKeyBase64()}`)),
});

it('measures the input as encrypted and sent', async () => {
  const small = await checkPayloadSize(client, 'x', { a: 'b' });
  const larger = await checkPayloadSize(client, 'x', { a: 'b'.repeat(1000) });
  expect(small).toBeGreaterThan(0);
  expect(larger - small).toBeGreaterThanOrEqual(1000);
});

it('refuses an input above the limit before anything is sent, naming the largest field', async () => {
  const start = jest.spyOn(client.workflow, 'start');
  const error = await startOnce(client, {
    type: WorkflowTypes.fundTransfer,
    workflowId: 'transfer-big',
    input: { transferRef: 'big', note: 'x'.repeat(PAYLOAD_LIMIT_BYTES + 1), other: 'y' },
    attributes: { flow: 'fundTransfer' },
  } as never).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InvalidInputError);
  const [problem] = (error as InvalidInputError).problems;
  expect(problem).toMatch(
    /^input: 2\.0 MiB once encoded, above Temporal's payload limit of 2\.0 MiB; largest fields: note \(/,
  );
  expect(problem).not.toContain('xxxx');
  expect(start).not.toHaveBeenCalled();
});

it('warns above the server warning level', async () => {
  const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  try {
    await checkPayloadSize(client, 'onboarding acme-1', { note: 'x'.repeat(600 * 1024) });
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/^onboarding acme-1: input of 6\d\d KiB/),
      'CardflowPayloadSize',
    );
  } finally {
    warn.mockRestore();
  }
});

it('refuses an onboarding whose encoded input passes the limit, before anything is sent', async () => {
  // Every onboarding field has its own length limit, so only what the client's codec adds can pass
  // the limit: a codec that pads each payload stands for it.
  const padding: PayloadCodec = {
    encode: async (payloads: Payload[]) =>
      payloads.map((p) => ({
        ...p,
        data: new Uint8Array([...(p.data ?? []), ...new Uint8Array(PAYLOAD_LIMIT_BYTES)]),
      })),
    decode: async (payloads: Payload[]) => payloads,
  };
  const padded = new Client({
    connection: Connection.lazy({ address: '127.0.0.1:1' }),
    dataConverter: { payloadCodecs: [padding] },
  });
  const start = jest.spyOn(padded.workflow, 'start').mockRejectedValue(new Error('sent to the server'));
  const customer = JSON.parse(
    readFileSync(path.resolve(__dirname, '../../../client/examples/customer.json'), 'utf8'),
  ) as Parameters<typeof startOnboarding>[1];
  const error = await startOnboarding(padded, customer, { whileUnavailable: { limitMs: 0 } }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InvalidInputError);
  expect((error as InvalidInputError).problems[0]).toMatch(
    /above Temporal's payload limit of 2\.0 MiB; largest fields: /,
  );
  expect((error as InvalidInputError).problems[0]).not.toContain('ada.demo@example.com');
  expect(start).not.toHaveBeenCalled();
});
