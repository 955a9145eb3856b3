// Accounts → gateway over the bus: device rows changed through the API reach the gateway's cached directory at
// once, not on its 30 s refresh (and not after the 10 s negative cache of a refused terminal ID).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../testing/harness.ts';
import { Subjects } from './events.ts';
import {
  adminClient,
  createGatewayTestServer,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  userClient,
  waitFor,
} from './test-support.ts';

describe('device changes made through the API reach the gateway', () => {
  let server: GatewayTestServer;
  let admin: ApiClient;
  const notices: unknown[] = [];

  beforeAll(async () => {
    server = await createGatewayTestServer();
    admin = await adminClient(server);
    server.ctx.bus.subscribe(Subjects.deviceChanged, (p) => notices.push(p));
  });
  afterAll(async () => {
    await server.close();
  });

  it('a refused device imported through the API connects right away', async () => {
    const terminalId = newTerminalId('gt06');
    const first = simulatedDevice(server.gateway, 'gt06', terminalId);
    await expect(first.connect(5000)).rejects.toThrow(/closed before login/);
    first.stop();

    const job = await admin.post<{ result: { success: number } }>('/device/import', {
      userId: '2',
      text: terminalId,
      protocol: 2,
      deviceType: 12,
      wait: true,
    });
    expect(job.meta.success).toBe(true);
    expect(job.data.result.success).toBe(1);
    expect(notices).toContainEqual({ terminalID: terminalId });

    // Within the 10 s the refusal is remembered: only the notice can have cleared it.
    const again = simulatedDevice(server.gateway, 'gt06', terminalId);
    await again.connect(5000);
    expect(again.connected).toBe(true);
    again.stop();
  });

  it('a transfer moves the device to its new owner in the gateway without waiting for a refresh', async () => {
    const agent = await userClient(server, `chg-agent-${process.pid}`, 2);
    const agentId = String(
      (
        await server.ctx.db
          .selectFrom('users')
          .select('id')
          .where('username', '=', `chg-agent-${process.pid}`)
          .executeTakeFirstOrThrow()
      ).id,
    );
    expect(agent.cookie).not.toBe('');
    const terminalId = newTerminalId('gt06');
    const imported = await admin.post<{ result: { success: number } }>('/device/import', {
      userId: '1',
      text: terminalId,
      protocol: 2,
      deviceType: 12,
      wait: true,
    });
    expect(imported.data.result.success).toBe(1);
    const sim = simulatedDevice(server.gateway, 'gt06', terminalId);
    await sim.connect(5000);
    const before = await server.gateway.directory.find(terminalId);
    expect(before?.path).toBe('/1/');

    const moved = await admin.post('/device/transfer', { terminalIDs: [terminalId], userId: agentId });
    expect(moved.meta.success).toBe(true);
    const ref = await waitFor(
      async () => {
        const r = await server.gateway.directory.find(terminalId);
        return r?.path === `/1/${agentId}/` ? r : null;
      },
      5000,
      'the new owner in the directory',
    );
    expect(ref.id).toBe(before?.id);
    sim.stop();
  });
});
