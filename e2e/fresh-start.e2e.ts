// Issue 12's "Done when", on a new user's `npm start` (fresh data directory, nothing configured but the ports): the
// NB-IoT callbacks are closed, the admin password is generated (no shared default anywhere), a demo visitor
// cannot change the demo, and secrets at rest get their key file (DATA_DIR/secret.key, mode 0600).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPlatform, startPlatform } from './harness.ts';

async function post(baseUrl: string, path: string, body: unknown, cookie = '') {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', lang: 'en', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  const sid = (res.headers.get('set-cookie') ?? '').match(/carhere_sid=[^;]+/)?.[0] ?? '';
  return {
    status: res.status,
    json: (await res.json()) as { meta: { code: number; message: string; success: boolean }; data: unknown },
    sid,
  };
}

describe('a new user’s npm start', () => {
  let platform: RunningPlatform;
  beforeAll(async () => {
    // No ADMIN_PASSWORD, no NB_CALLBACK_TOKEN, no SECRET_KEY; the demo on, as `npm start` has it by default.
    // An empty data directory, as a new user has it.
    platform = await startPlatform(
      { ADMIN_PASSWORD: '', DEMO: '1', NB_CALLBACK_TOKEN: '', SECRET_KEY: '' },
      { emptyDataDir: true },
    );
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('has no open NB-IoT callback', async () => {
    const push = { notifyType: 'deviceDataChanged', deviceId: 'any', service: { serviceId: 'Location', data: {} } };
    for (const path of ['/nb/subscribe', '/ccs/subscribe', '/nb/subscribe?token=', '/ccs/subscribe?token=x']) {
      const res = await post(platform.baseUrl, path, push);
      expect(res.status, path).toBe(403);
      expect(res.json.meta.success).toBe(false);
    }
  });

  it('has no shared default password: the admin password is generated and shown once, the old default opens nothing', async () => {
    const shown = platform.log().match(/admin \/ (\S+)\s+\(generated/);
    expect(shown, platform.log()).not.toBeNull();
    const generated = shown![1];
    expect(generated).not.toBe('Carhere-123456');
    for (const username of ['admin', 'demo']) {
      expect((await post(platform.baseUrl, '/login', { username, password: 'Carhere-123456' })).json.meta.code).toBe(
        209,
      );
    }
    expect((await post(platform.baseUrl, '/login', { username: 'admin', password: generated })).json.meta.code).toBe(
      200,
    );
  });

  it('gives the demo visitor no way to change the demo', async () => {
    const demo = await post(platform.baseUrl, '/login/demo', {});
    expect(demo.json.meta.code).toBe(200);
    const id = (demo.json.data as { userInfo: { id: string } }).userInfo.id;
    const before = await post(platform.baseUrl, '/user/findById', { id }, demo.sid);
    expect(before.json.meta.success).toBe(true);
    for (const [path, body] of [
      ['/user/updateUser', { id, nickname: 'defaced' }],
      ['/user/checkUserPassword', { oldPassword: 'x', password: 'Visitor-1', confirmPassword: 'Visitor-1' }],
    ] as const) {
      const res = await post(platform.baseUrl, path, body, demo.sid);
      expect(res.json.meta.success, path).toBe(false);
      expect(res.json.meta.message, path).toBe('No permission to use this feature!');
    }
    const after = await post(platform.baseUrl, '/user/findById', { id }, demo.sid);
    expect(after.json.data).toEqual(before.json.data);
  });

  it('keeps the key that seals secrets at rest in DATA_DIR/secret.key, readable by the owner only', () => {
    const file = join(platform.dataDir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
  });
});
