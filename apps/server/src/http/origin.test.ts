// /api/ws and the Origin of the page that opens it: the server's own origin and ALLOWED_ORIGINS only.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { adminClient } from '../gateway/test-support.ts';
import { type ApiClient, createTestServer, type TestServer } from '../testing/harness.ts';
import { isAllowedOrigin } from './origin.ts';

describe('isAllowedOrigin', () => {
  const hosts = ['track.example.com:8443'];
  it('the same host over http or https, and configured origins', () => {
    expect(isAllowedOrigin({ origin: 'https://track.example.com:8443', hosts }, [])).toBe(true);
    expect(isAllowedOrigin({ origin: 'http://TRACK.example.com:8443', hosts }, [])).toBe(true);
    expect(isAllowedOrigin({ origin: 'https://maps.example.org', hosts }, ['https://maps.example.org'])).toBe(true);
    expect(isAllowedOrigin({ origin: undefined, hosts }, [])).toBe(true);
  });
  it('refuses other origins, look-alikes, null and non-web schemes', () => {
    for (const origin of [
      'https://evil.example',
      'https://track.example.com', // other port
      'https://track.example.com:8443.evil.example',
      'http://maps.example.org', // configured only over https
      'null',
      'file://',
      'chrome-extension://abc',
      '',
    ]) {
      expect(isAllowedOrigin({ origin, hosts }, ['https://maps.example.org']), origin).toBe(false);
    }
    expect(isAllowedOrigin({ origin: 'https://track.example.com:8443', hosts: [undefined, ''] }, [])).toBe(false);
  });
});

describe('/api/ws Origin check', () => {
  let server: TestServer;
  let admin: ApiClient;
  let port: number;

  beforeAll(async () => {
    server = await createTestServer({ allowedOrigins: ['https://partner.example'] });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    port = (server.app.server.address() as AddressInfo).port;
    admin = await adminClient(server);
  });
  afterAll(async () => {
    await server.close();
  });

  function open(headers: Record<string, string>): Promise<string> {
    return new Promise((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/ws`, { headers });
      ws.on('open', () => {
        ws.close();
        resolve('open');
      });
      ws.on('unexpected-response', (_req, res) => resolve(`HTTP ${res.statusCode}`));
      ws.on('error', (e) => resolve(`error ${e.message}`));
    });
  }

  it('a page of a foreign origin is refused, even with a valid session', async () => {
    expect(await open({ cookie: admin.cookie, origin: 'https://evil.example' })).toBe('HTTP 403');
    expect(await open({ cookie: admin.cookie, origin: 'null' })).toBe('HTTP 403');
    expect(await open({ cookie: admin.cookie, origin: `http://localhost:${port}` })).toBe('HTTP 403');
  });

  it('our own origin (http or https on the same host) and a configured origin are accepted', async () => {
    expect(await open({ cookie: admin.cookie, origin: `http://127.0.0.1:${port}` })).toBe('open');
    expect(await open({ cookie: admin.cookie, origin: `https://127.0.0.1:${port}` })).toBe('open');
    expect(await open({ cookie: admin.cookie, origin: 'https://partner.example' })).toBe('open');
  });

  it('a program without Origin needs a valid session, as before', async () => {
    expect(await open({ cookie: admin.cookie })).toBe('open');
    expect(await open({})).toBe('HTTP 401');
    expect(await open({ origin: `http://127.0.0.1:${port}` })).toBe('HTTP 401');
  });
});
