import { configured } from '../../../support/configured';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { codecServerOptions } from '../../../../platform/codec/config';

describe('codecServerOptions', () => {
  it('defaults to loopback, port 8888, the dev UI origins, and tokenless access from loopback outside production', () => {
    expect(codecServerOptions(configured({}))).toEqual({
      host: '127.0.0.1',
      port: 8888,
      token: undefined,
      tokenlessAccess: 'loopback',
      allowedOrigins: ['http://127.0.0.1:8233', 'http://localhost:8233'],
      maxBodyBytes: 8 * 1024 * 1024,
    });
  });

  it('requires a token in production unless told otherwise, and reads it from a secret file', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'cardflow-codec-')), 'token');
    writeFileSync(file, 'file-token-0123456789\n');
    const options = codecServerOptions(
      configured({
        NODE_ENV: 'production',
        CARDFLOW_CODEC_SERVER_TOKEN_FILE: file,
        CARDFLOW_CODEC_SERVER_ORIGINS: 'https://ui.example.com, http://localhost:8080',
      }),
    );
    expect(options).toMatchObject({
      tokenlessAccess: 'never',
      token: 'file-token-0123456789',
      allowedOrigins: ['https://ui.example.com', 'http://localhost:8080'],
    });
  });

  it('names the variable of a bad value', () => {
    expect(() => codecServerOptions(configured({ CARDFLOW_CODEC_SERVER_PORT: 'http' }))).toThrow(
      'CARDFLOW_CODEC_SERVER_PORT: must be a TCP port from 0 to 65535',
    );
    expect(() => codecServerOptions(configured({ CARDFLOW_CODEC_SERVER_TOKENLESS: 'sometimes' }))).toThrow(
      'CARDFLOW_CODEC_SERVER_TOKENLESS: must be one of never, loopback, any',
    );
    expect(() => codecServerOptions(configured({ CARDFLOW_CODEC_SERVER_ORIGINS: 'https://ui.example.com/' }))).toThrow(
      'CARDFLOW_CODEC_SERVER_ORIGINS: "https://ui.example.com/" must be exactly scheme://host[:port] (did you mean https://ui.example.com?)',
    );
    expect(() =>
      codecServerOptions(configured({ CARDFLOW_CODEC_SERVER_TOKEN: 'a', CARDFLOW_CODEC_SERVER_TOKEN_FILE: '/x' })),
    ).toThrow('CARDFLOW_CODEC_SERVER_TOKEN and CARDFLOW_CODEC_SERVER_TOKEN_FILE: set only one');
  });
});
