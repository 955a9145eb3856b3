// Recordings over TCP (issue 21): a JT/T 808 terminal told to record audio (LY,<s>#) uploads a WAV file in
// sub-packages (0x0801); the gateway reassembles and stores it before its 0x8800 answer, links it to the command,
// and the API lists it (time, length, command), serves it to play or download, and the test role finds it in
// the tape download search. Size limit, retention, permissions, the subtree and bad input are checked too.
import { toneWav } from '@carhere/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  createGatewayTestServer,
  demoClient,
  type GatewayTestServer,
  newTerminalId,
  simulatedDevice,
  userClient,
  waitFor,
} from '../../gateway/test-support.ts';
import type { ApiClient } from '../../testing/harness.ts';
import { cleanupLogs } from '../logs/cleanup.ts';

type Recording = {
  id: string;
  terminalID: string;
  time: string;
  durationMs: number | null;
  size: number;
  mediaType: number;
  format: number;
  mime: string;
  event: number;
  commandId: string | null;
  command: string | null;
  commandType: string | null;
};
type Page<T> = { total: number; list: T[] };

describe('recordings over TCP', () => {
  let server: GatewayTestServer;
  let demo: ApiClient;
  let tester: ApiClient;
  let stranger: ApiClient;
  const tid = newTerminalId('jt808');
  const noRecorder = newTerminalId('jt808');
  let commandId: string;

  beforeAll(async () => {
    server = await createGatewayTestServer();
    demo = await demoClient(server);
    tester = await userClient(server, 'rec-tester', 5);
    stranger = await userClient(server, 'rec-stranger', 2);
    await addDevice(server, tid, 'jt808', { deviceType: 8 });
    await addDevice(server, noRecorder, 'jt808', { deviceType: 9 });
  }, 60_000);
  afterAll(async () => {
    await server.close();
  });

  it('stores the multi-packet recording a record-audio command asked for, before answering 0x8800', async () => {
    const sim = simulatedDevice(server.gateway, 'jt808', tid, { recordSecondsMax: 2 });
    await sim.connect();
    try {
      const sent = await demo.post<{ commandId: string; status: string }>('/tracker_cmd', {
        terminalID: tid,
        content: 'LY,30#',
      });
      expect(sent.meta.success).toBe(true);
      commandId = sent.data.commandId;
      const upload = await waitFor(() => sim.uploads[0], 20_000, 'the 0x8800 answer');
      // 2 s of 8 kHz 8-bit WAV: 16 044 bytes, sent in 1000-byte sub-packages; nothing asked again.
      expect(upload.bytes).toBe(16_044);
      expect(upload.parts).toBeGreaterThan(10);
      expect(upload.missing).toEqual([]);
      // The answer came after the row was written.
      const rows = await server.ctx.db.selectFrom('recordings').select(['size', 'event']).execute();
      expect(rows).toEqual([{ size: 16_044, event: 0 }]);
    } finally {
      sim.stop();
    }
  }, 60_000);

  it("lists the device's recordings with time, length and the command that asked", async () => {
    const res = await demo.post<Page<Recording>>('/recording/find', { terminalID: tid });
    expect(res.status).toBe(200);
    expect(res.data.total).toBe(1);
    expect(res.data.list[0]).toMatchObject({
      terminalID: tid,
      durationMs: 2000,
      size: 16_044,
      mediaType: 1,
      format: 3,
      mime: 'audio/wav',
      event: 0,
      commandId,
      command: 'LY,30#',
      commandType: 'Record audio',
    });
  });

  it('the command records link to the recording the command produced', async () => {
    const rec = (await demo.post<Page<Recording>>('/recording/find', { terminalID: tid })).data.list[0];
    const records = await demo.post<Page<{ id: string; recordings?: string[] }>>('/command/find', {
      terminalID: tid,
    });
    const record = records.data.list.find((r) => r.id === commandId);
    expect(record?.recordings).toEqual([rec.id]);
  });

  it('serves the file to play (inline) and to download (attachment), byte for byte', async () => {
    const rec = (await demo.post<Page<Recording>>('/recording/find', { terminalID: tid })).data.list[0];
    const play = await server.app.inject({
      method: 'GET',
      url: `/api/recording/file?id=${rec.id}`,
      headers: { cookie: demo.cookie },
    });
    expect(play.statusCode).toBe(200);
    expect(play.headers['content-type']).toBe('audio/wav');
    expect(String(play.headers['content-disposition'])).toMatch(/^inline; filename="\d+-\d{8}T\d{6}-\d+\.wav"$/);
    expect(Buffer.compare(play.rawPayload, toneWav(2))).toBe(0);
    const download = await server.app.inject({
      method: 'GET',
      url: `/api/recording/file?id=${rec.id}&download=1`,
      headers: { cookie: tester.cookie },
    });
    expect(download.statusCode).toBe(200);
    expect(String(download.headers['content-disposition'])).toMatch(/^attachment; /);
  });

  it('a recording the terminal made on its own (timer) has no command; the test role finds both', async () => {
    const sim = simulatedDevice(server.gateway, 'jt808', tid);
    await sim.connect();
    try {
      await sim.uploadRecording(1, 1);
    } finally {
      sim.stop();
    }
    const mine = await demo.post<Page<Recording>>('/recording/find', { terminalID: tid });
    expect(mine.data.list.map((r) => [r.durationMs, r.event, r.commandId])).toEqual([
      [1000, 1, null],
      [2000, 0, commandId],
    ]);
    const tape = await tester.post<Page<Recording>>('/recording/search', { terminalID: tid.slice(0, 8) });
    expect(tape.status).toBe(200);
    expect(tape.data.list.filter((r) => r.terminalID === tid)).toHaveLength(2);
    const none = await tester.post<Page<Recording>>('/recording/search', {
      terminalID: tid,
      endTime: Date.now() - 86_400_000,
    });
    expect(none.data.total).toBe(0);
  }, 60_000);

  it('refuses a file above RECORDING_MAX_BYTES (answered, not kept, written to the device log)', async () => {
    const before = await server.ctx.db.selectFrom('recordings').select('id').execute();
    const limit = server.ctx.config.recordingMaxBytes;
    server.ctx.config.recordingMaxBytes = 10_000;
    const sim = simulatedDevice(server.gateway, 'jt808', tid);
    await sim.connect();
    try {
      const upload = await sim.uploadRecording(2, 1);
      expect(upload.missing).toEqual([]);
    } finally {
      sim.stop();
      server.ctx.config.recordingMaxBytes = limit;
    }
    const after = await server.ctx.db.selectFrom('recordings').select('id').execute();
    expect(after.length).toBe(before.length);
    const logged = await waitFor(
      async () =>
        (
          await server.ctx.db
            .selectFrom('device_log')
            .select('detail')
            .where('terminal_id', '=', tid)
            .where('event', '=', 'recording')
            .where('detail', 'like', '%refused%')
            .execute()
        )[0],
      5_000,
      'the refusal in the device log',
    );
    expect(logged.detail).toMatch(/larger than 10000 bytes/);
  }, 60_000);

  it('refuses the list to callers without the permission or outside the subtree, and bad input', async () => {
    expect((await tester.post('/recording/find', { terminalID: tid })).status).toBe(403);
    expect((await demo.post('/recording/search', {})).status).toBe(403);
    const outside = await stranger.post('/recording/find', { terminalID: tid });
    expect(outside.status).toBe(403);
    const rec = (await demo.post<Page<Recording>>('/recording/find', { terminalID: tid })).data.list[0];
    expect((await stranger.get(`/recording/file?id=${rec.id}`)).status).toBe(403);
    expect((await demo.get('/recording/file?id=99999999')).status).toBe(404);
    expect((await demo.post('/recording/find', { terminalID: tid, startTime: 'yesterday-ish' })).status).toBe(400);
    expect((await demo.get('/recording/file?id=abc')).status).toBe(400);
    const reversed = await demo.post('/recording/find', { terminalID: tid, startTime: Date.now(), endTime: 0 });
    expect(reversed.status).toBe(400);
  });

  it('refuses the list of a device whose type cannot record (spec §8)', async () => {
    const res = await demo.post('/recording/find', { terminalID: noRecorder });
    expect(res.status).toBe(400);
    expect(res.meta.message).toBe('The device does not support this feature!');
  });

  it("removes recordings past the 'recording' retention", async () => {
    await server.ctx.db
      .updateTable('recordings')
      .set({ received_at: new Date(Date.now() - 40 * 86_400_000) })
      .where('event', '=', 1)
      .execute();
    const removed = await cleanupLogs(server.ctx);
    expect(removed.recording).toBe(1);
    const left = await demo.post<Page<Recording>>('/recording/find', { terminalID: tid });
    expect(left.data.list.map((r) => r.event)).toEqual([0]);
  });
});
