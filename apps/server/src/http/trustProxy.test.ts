// request.ip and the https flag come from X-Forwarded-* only when the TCP peer is a configured proxy (TRUST_PROXY).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/harness.ts';

async function loginWith(server: TestServer, headers: Record<string, string>) {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/login',
    remoteAddress: '127.0.0.1',
    headers,
    payload: { username: 'admin', password: TEST_ADMIN_PASSWORD },
  });
  expect(res.json().meta.code).toBe(200);
  const cookie = String(res.headers['set-cookie']);
  const session = await server.ctx.db
    .selectFrom('sessions')
    .select('ip')
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return { ip: session.ip, secure: /;\s*Secure/i.test(cookie) };
}

const spoof = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' };

describe('without TRUST_PROXY', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ trustProxy: [] });
  });
  afterAll(async () => server.close());

  it('ignores X-Forwarded-For and X-Forwarded-Proto: the address is the TCP peer, the cookie is not Secure', async () => {
    expect(await loginWith(server, spoof)).toEqual({ ip: '127.0.0.1', secure: false });
  });
});

describe('with TRUST_PROXY naming the proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ trustProxy: ['127.0.0.1'] });
  });
  afterAll(async () => server.close());

  it('believes the proxy: the client address and https come from its headers', async () => {
    expect(await loginWith(server, spoof)).toEqual({ ip: '203.0.113.7', secure: true });
  });
});

describe('with TRUST_PROXY naming another address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ trustProxy: ['10.0.0.0/8'] });
  });
  afterAll(async () => server.close());

  it('ignores the headers of a peer that is not a listed proxy', async () => {
    expect(await loginWith(server, spoof)).toEqual({ ip: '127.0.0.1', secure: false });
  });
});
