import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../testing/harness.ts';
import { createTestServer, type TestServer } from '../../testing/harness.ts';
import { buildDevice, buildUser, clientFor, type FixtureUser } from './testFixtures.ts';

interface Fence {
  id: string;
  name: string;
  shape: string;
  radius: number | null;
  minLat: number | null;
  alarmType: string;
  state: string;
  deviceCount: number;
  userId: string;
}

describe('/api/fence/*', () => {
  let server: TestServer;
  let agent: FixtureUser;
  let user: FixtureUser;
  let sibling: FixtureUser;
  let tester: FixtureUser;
  let asUser: ApiClient;
  let asAgent: ApiClient;
  let asSibling: ApiClient;

  const circle = { name: 'Depot', shape: 'circle', lat: 39.915, lon: 116.404, radius: 500, alarmType: 'inOut' };

  beforeAll(async () => {
    server = await createTestServer();
    const db = server.ctx.db;
    agent = await buildUser(db, 'fence-agent', 2);
    user = await buildUser(db, 'fence-user', 3, agent);
    sibling = await buildUser(db, 'fence-sibling', 2);
    tester = await buildUser(db, 'fence-tester', 5);
    await buildDevice(db, '861000000000001', user, { nickname: 'Truck 1' });
    await buildDevice(db, '861000000000002', agent);
    await buildDevice(db, '861000000000003', sibling);
    asUser = await clientFor(server, user);
    asAgent = await clientFor(server, agent);
    asSibling = await clientFor(server, sibling);
  });
  afterAll(async () => {
    await server.close();
  });

  it('creates a circle fence linked to a device, lists and reads it', async () => {
    const add = await asUser.post<Fence>('/fence/add', { ...circle, terminalIDs: ['861000000000001'] });
    expect(add.meta.success).toBe(true);
    expect(add.data).toMatchObject({ name: 'Depot', shape: 'circle', radius: 500, state: 'opened', deviceCount: 1 });
    expect(add.data.userId).toBe(user.id);

    const list = await asUser.post<{ total: number; list: Fence[] }>('/fence/find', { pageNum: 1, pageSize: 15 });
    expect(list.data.total).toBe(1);
    expect(list.data.list[0].id).toBe(add.data.id);

    const byName = await asUser.post<{ total: number }>('/fence/find', { name: 'nothing like it' });
    expect(byName.data.total).toBe(0);

    // The agent above the user sees it too; a sibling agent does not.
    expect((await asAgent.post<{ total: number }>('/fence/find', {})).data.total).toBe(1);
    expect((await asSibling.post<{ total: number }>('/fence/find', {})).data.total).toBe(0);
    const foreign = await asSibling.post('/fence/findById', { id: add.data.id });
    expect(foreign.status).toBe(403);
    expect(foreign.meta.message).toBe('This account has no permission to do this!');

    const devices = await asUser.post<{
      total: number;
      list: { terminalID: string; displayName: string; inside: null }[];
    }>('/fence/findDevices', { id: add.data.id });
    expect(devices.data.total).toBe(1);
    expect(devices.data.list[0]).toMatchObject({ terminalID: '861000000000001', displayName: 'Truck 1', inside: null });

    const byDevice = await asUser.post<Fence[]>('/fence/findByDevice', { terminalID: '861000000000001' });
    expect(byDevice.data.map((f) => f.id)).toEqual([add.data.id]);
  });

  it('creates a rectangle, updates it, closes and reopens it', async () => {
    const rect = await asUser.post<Fence>('/fence/add', {
      name: 'Yard',
      shape: 'rectangle',
      minLat: 39.9,
      minLon: 116.3,
      maxLat: 40,
      maxLon: 116.5,
      alarmType: 'out',
    });
    expect(rect.data).toMatchObject({ shape: 'rectangle', minLat: 39.9, radius: null, deviceCount: 0 });
    const moved = await asUser.post<Fence>('/fence/update', {
      id: rect.data.id,
      name: 'Big yard',
      shape: 'circle',
      lat: 39.95,
      lon: 116.4,
      radius: 2500,
    });
    expect(moved.data).toMatchObject({
      name: 'Big yard',
      shape: 'circle',
      radius: 2500,
      minLat: null,
      alarmType: 'out',
    });
    const closed = await asUser.post<Fence>('/fence/setState', { id: rect.data.id, state: 'closed' });
    expect(closed.data.state).toBe('closed');
    expect((await asUser.post<{ total: number }>('/fence/find', { state: 'closed' })).data.total).toBe(1);
    const reopened = await asUser.post<Fence>('/fence/update', { id: rect.data.id, state: 'opened', alarmType: 'in' });
    expect(reopened.data).toMatchObject({ state: 'opened', alarmType: 'in' });
    expect((await asUser.post('/fence/delete', { id: rect.data.id })).data).toEqual({ deleted: 1 });
    expect((await asUser.post('/fence/findById', { id: rect.data.id })).status).toBe(404);
  });

  it('refuses to delete a fence that still has devices, then deletes it once they are removed', async () => {
    const fence = await asUser.post<Fence>('/fence/add', { ...circle, name: 'Keep', terminalIDs: ['861000000000001'] });
    const refused = await asUser.post('/fence/delete', { id: fence.data.id });
    expect(refused.meta.success).toBe(false);
    expect(refused.meta.message).toBe('The fence still has devices; remove them before deleting it');
    asUser.lang = 'cn';
    expect((await asUser.post('/fence/delete', { id: fence.data.id })).meta.message).toBe(
      '该围栏还关联着设备，请先移除设备再删除',
    );
    asUser.lang = 'en';
    const removed = await asUser.post('/fence/unassign', { id: fence.data.id, terminalIDs: ['861000000000001'] });
    expect(removed.data).toEqual({ removed: 1 });
    expect((await asUser.post('/fence/delete', { id: fence.data.id })).data).toEqual({ deleted: 1 });
  });

  it('assigns only devices the fence owner reaches', async () => {
    const fence = await asUser.post<Fence>('/fence/add', { ...circle, name: 'Assign' });
    const ok = await asUser.post('/fence/assign', { id: fence.data.id, terminalIDs: ['861000000000001'] });
    expect(ok.data).toEqual({ assigned: 1, total: 1 });
    const again = await asUser.post('/fence/assign', { id: fence.data.id, terminalIDs: ['861000000000001'] });
    expect(again.data).toEqual({ assigned: 0, total: 1 });
    // The agent's own device is above the user; the sibling's is in another tree; one does not exist.
    for (const imei of ['861000000000002', '861000000000003', '869999999999999']) {
      const denied = await asUser.post('/fence/assign', { id: fence.data.id, terminalIDs: [imei] });
      expect(denied.status).toBe(403);
      expect(denied.meta.message).toContain(imei);
    }
    // The agent reaches the user's fence but may not link its own device to a fence its user owns.
    expect((await asAgent.post('/fence/assign', { id: fence.data.id, terminalIDs: ['861000000000002'] })).status).toBe(
      403,
    );
    // An agent creating a fence for its user links the user's device.
    const forUser = await asAgent.post<Fence>('/fence/add', {
      ...circle,
      name: 'For user',
      userId: user.id,
      terminalIDs: ['861000000000001'],
    });
    expect(forUser.data).toMatchObject({ userId: user.id, deviceCount: 1 });
    expect((await asSibling.post('/fence/add', { ...circle, userId: user.id })).status).toBe(403);
    expect(
      (await asSibling.post('/fence/assign', { id: fence.data.id, terminalIDs: ['861000000000003'] })).status,
    ).toBe(403);
  });

  it('removes a device that has since moved out of reach, so the fence can still be emptied and deleted', async () => {
    const moved = await buildDevice(server.ctx.db, '861000000000009', user);
    const fence = await asUser.post<Fence>('/fence/add', { ...circle, name: 'Moved', terminalIDs: [moved.terminalId] });
    await server.ctx.db.updateTable('devices').set({ user_id: sibling.id }).where('id', '=', moved.id).execute();
    expect((await asUser.post('/fence/unassign', { id: fence.data.id, terminalIDs: [moved.terminalId] })).data).toEqual(
      {
        removed: 1,
      },
    );
    expect((await asUser.post('/fence/delete', { id: fence.data.id })).data).toEqual({ deleted: 1 });
    // Nothing is removed from a fence the caller does not reach.
    const others = await asSibling.post<Fence>('/fence/add', {
      ...circle,
      name: 'Theirs',
      terminalIDs: [moved.terminalId],
    });
    expect((await asUser.post('/fence/unassign', { id: others.data.id, terminalIDs: [moved.terminalId] })).status).toBe(
      403,
    );
  });

  it('denies callers without main:fence and without a session', async () => {
    const asTester = await clientFor(server, tester);
    const res = await asTester.post('/fence/find', {});
    expect(res.status).toBe(403);
    expect(res.meta.message).toBe('This account has no permission to do this!');
    expect((await asTester.post('/fence/add', circle)).status).toBe(403);
    const anonymous = await server.app.inject({ method: 'POST', url: '/api/fence/find', payload: {} });
    expect(anonymous.json().meta.message).toBe('407');
  });

  it('answers bad input with a clear 400', async () => {
    const small = await asUser.post('/fence/add', { ...circle, radius: 50 });
    expect(small.status).toBe(400);
    expect(small.meta.message).toBe('The fence radius must be between 100 and 1000000 m');
    expect((await asUser.post('/fence/add', { ...circle, radius: 1_000_001 })).status).toBe(400);
    const flipped = await asUser.post('/fence/add', {
      name: 'Bad',
      shape: 'rectangle',
      minLat: 40,
      minLon: 116.3,
      maxLat: 39.9,
      maxLon: 116.5,
      alarmType: 'in',
    });
    expect(flipped.status).toBe(400);
    expect(flipped.meta.message).toMatch(/rectangle is not valid/);
    const noCentre = await asUser.post('/fence/add', { name: 'x', shape: 'circle', radius: 500, alarmType: 'in' });
    expect(noCentre.meta.message).toMatch(/needs a position/);
    const noName = await asUser.post('/fence/add', { ...circle, name: '' });
    expect(noName.status).toBe(400);
    expect(noName.meta.message).toMatch(/Invalid parameter: name/);
    expect((await asUser.post('/fence/add', { ...circle, shape: 'triangle' })).status).toBe(400);
    expect((await asUser.post('/fence/add', { ...circle, alarmType: 'sideways' })).status).toBe(400);
    expect((await asUser.post('/fence/add', { ...circle, lat: 91 })).status).toBe(400);
    expect((await asUser.post('/fence/findById', { id: 'abc' })).status).toBe(400);
    expect((await asUser.post('/fence/findById', { id: '987654' })).status).toBe(404);
    expect((await asUser.post('/fence/assign', { id: '1' })).status).toBe(400);
    const tooMany = Array.from({ length: 501 }, (_, i) => `86100000${String(i).padStart(7, '0')}`);
    expect((await asUser.post('/fence/assign', { id: '1', terminalIDs: tooMany })).status).toBe(400);
    const badUpdate = await asUser.post<Fence>('/fence/add', { ...circle, name: 'Upd' });
    expect((await asUser.post('/fence/update', { id: badUpdate.data.id, radius: 99 })).status).toBe(400);
  });
});
