import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('configuration from the environment', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, gt06Port: 5023, jt808Port: 5015, busUrl: undefined, busPrefix: '' });
    expect(c.commandTimeoutMs).toBe(30_000);
  });

  it('reads BUS_PREFIX as NATS subject tokens ending in one dot, and refuses anything else', () => {
    expect(loadConfig({ BUS_PREFIX: 'carhere-eu' }).busPrefix).toBe('carhere-eu.');
    expect(loadConfig({ BUS_PREFIX: 'acme.prod.' }).busPrefix).toBe('acme.prod.');
    expect(loadConfig({ BUS_PREFIX: '  ' }).busPrefix).toBe('');
    for (const bad of ['a b', 'x.>', '*', 'a..b', '.a'])
      expect(() => loadConfig({ BUS_PREFIX: bad }), bad).toThrow(/BUS_PREFIX/);
  });

  it('reads ALLOWED_ORIGINS as a comma-separated list of origins, and refuses anything else', () => {
    expect(loadConfig({}).allowedOrigins).toEqual([]);
    expect(
      loadConfig({ ALLOWED_ORIGINS: ' https://maps.example.com , http://10.0.0.5:8080/ ' }).allowedOrigins,
    ).toEqual(['https://maps.example.com', 'http://10.0.0.5:8080']);
    expect(loadConfig({ ALLOWED_ORIGINS: 'HTTPS://Maps.Example.com' }).allowedOrigins).toEqual([
      'https://maps.example.com',
    ]);
    for (const bad of ['maps.example.com', 'ftp://x.example', 'https://x.example/path', '*'])
      expect(() => loadConfig({ ALLOWED_ORIGINS: bad }), bad).toThrow(/ALLOWED_ORIGINS/);
  });

  it('refuses numbers that are not numbers', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ APP_ENV: 'prod' })).toThrow(/APP_ENV/);
  });

  it('trusts no proxy by default and reads TRUST_PROXY as addresses / CIDRs', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
    for (const bad of ['true', '*', '10.0.0.0/33', 'proxy.local', '1.2.3.4/8/1'])
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
  });
});
