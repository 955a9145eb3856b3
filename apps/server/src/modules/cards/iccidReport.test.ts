// The ICCID a real device reports over TCP keeps devices.iccid and the SIM cards in step: a simulated GT06
// tracker answers the ICCID query with its card number (string reply "<ICCID:…>"), the gateway decodes it into
// device_state.attributes.iccid, the database brings the device row and the card with that ICCID along, and
// card/check shows the card the factory had bound to that IMEI as a mismatch until card/clear unbinds it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  adminClient,
  createGatewayTestServer,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  userClient,
  waitFor,
} from '../../gateway/test-support.ts';

interface Check {
  synced: number;
  total: number;
  list: { kind: string; imei: string; cardIccid: string; reportedIccid: string }[];
}

describe('ICCID reported by a device over TCP', () => {
  let server: GatewayTestServer;
  beforeAll(async () => {
    server = await createGatewayTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('reaches devices.iccid and the card, and card/check shows the mismatch with the card bound before', async () => {
    const imei = newTerminalId('gt06');
    await addDevice(server, imei, 'gt06', { userId: null });
    const stamp = String(Date.now()).slice(-8);
    const [bound, reported] = [`8986${stamp}00000001`, `8986${stamp}00000002`];
    const tester = await userClient(server, 'iccid-tester', 5);
    const imported = await tester.post<{ result: { success: number } }>('/card/import', {
      text: `${bound},460001,13800000001,CMCC,1G,,,active,${imei}\n${reported},460002,13800000002`,
      wait: true,
    });
    expect(imported.data.result.success).toBe(2);

    const sim = simulatedDevice(server.gateway, 'gt06', imei, {
      replyTo: (command) => (/^ICCID#?$/i.test(command) ? `<ICCID:${reported}>` : 'OK'),
    });
    await sim.connect();
    try {
      const admin = await adminClient(server);
      const task = await admin.post('/task/create', { content: 'ICCID#', terminalIDs: [imei], area: 'factory' });
      expect(task.meta.success, task.meta.message).toBe(true);
      const device = await waitFor(
        async () => {
          const row = await server.ctx.db
            .selectFrom('devices')
            .select('iccid')
            .where('terminal_id', '=', imei)
            .executeTakeFirstOrThrow();
          return row.iccid === reported ? row : null;
        },
        15_000,
        'the reported ICCID on the device row',
      );
      expect(device.iccid).toBe(reported);
      const state = await server.ctx.db
        .selectFrom('device_state')
        .innerJoin('devices', 'devices.id', 'device_state.device_id')
        .select('device_state.attributes')
        .where('devices.terminal_id', '=', imei)
        .executeTakeFirstOrThrow();
      expect((state.attributes as { iccid?: string }).iccid).toBe(reported);
    } finally {
      sim.stop();
    }

    const cards = await tester.post<{ list: { iccid: string; imei: string | null; reportedIccid: string }[] }>(
      '/card/find',
      { iccid: `8986${stamp}` },
    );
    expect(Object.fromEntries(cards.data.list.map((c) => [c.iccid, c.imei]))).toEqual({
      [bound]: imei,
      [reported]: imei,
    });
    const check = await tester.post<Check>('/card/check', { imeis: [imei] });
    expect(check.data.list).toEqual([
      expect.objectContaining({ kind: 'mismatch', imei, cardIccid: bound, reportedIccid: reported }),
    ]);
    const cleared = await tester.post<{ cleared: number }>('/card/clear', { iccids: [bound] });
    expect(cleared.data.cleared).toBe(1);
    const after = await tester.post<Check>('/card/check', { imeis: [imei] });
    expect(after.data.list).toEqual([]);
  });
});
