// The loading flags of the API client (spec §7): a call not on the white list raises the global flag until it
// ends, also when it fails; a white-listed call never does.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callEnvelope, isLoading, showsLoading, subscribeLoading } from './client.ts';

const ok = () => new Response(JSON.stringify({ meta: { success: true, message: '', code: 200 }, data: null }));

describe('loading indicator per URL', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is on while a call runs and off after it, and tells listeners', async () => {
    let answer: (r: Response) => void = () => {};
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answer = resolve)));
    let notified = 0;
    const stop = subscribeLoading(() => notified++);
    const call = callEnvelope('/device/findById', { id: '1' });
    expect(isLoading()).toBe(true);
    expect(isLoading('/device/findById')).toBe(true);
    answer(ok());
    await call;
    expect(isLoading()).toBe(false);
    expect(notified).toBe(2);
    stop();
  });

  it('closes on a network failure', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('offline')));
    await expect(callEnvelope('/user/findById', { id: '1' })).rejects.toThrow();
    expect(isLoading()).toBe(false);
  });

  it('never shows for the white list', async () => {
    expect(showsLoading('/map/getKeyAddress')).toBe(false);
    expect(showsLoading('/command/find')).toBe(false);
    expect(showsLoading('/session')).toBe(false);
    expect(showsLoading('/device/update')).toBe(true);
    let answer: (r: Response) => void = () => {};
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answer = resolve)));
    const call = callEnvelope('/map/getKeyAddress', {});
    expect(isLoading()).toBe(false);
    answer(ok());
    await call;
  });
});
