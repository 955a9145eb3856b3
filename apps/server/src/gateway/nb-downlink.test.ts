// NB-IoT command delivery through the IoT platform. A local HTTP server plays the platform (login and device
// commands); the device's replies come back as push callbacks, as they would from the platform.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildGt06Frame } from '@carhere/protocols';
import { Gt06ServerReader, Jt808ServerReader } from '@carhere/simulator';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandStore } from '../modules/commands/store.ts';
import type { ApiClient } from '../testing/harness.ts';
import { NbCommands, NO_NB_DEVICE_ID, NO_PLATFORM } from './nb/commands.ts';
import { nbDownlinkOptionsFrom } from './nb/settings.ts';
import {
  addDevice,
  createGatewayTestServer,
  demoClient,
  type GatewayTestServer,
  newTerminalId,
  waitFor,
} from './test-support.ts';

/** The NB-IoT platform's callbacks carry the configured shared token (they are refused without one). */
const NB_TOKEN = 'nb-downlink-token';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type CommandResult = { commandId: string; status: string; result: number | null; reply: string | null };

/** The IoT platform: a login endpoint and the device-command endpoint; `down` resets every connection. */
class FakePlatform {
  readonly commands: Received[] = [];
  readonly logins: Received[] = [];
  down = false;
  private server: Server | null = null;
  private next = 1;
  port = 0;

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (this.down) {
          req.socket.destroy();
          return;
        }
        const got = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
        if (got.path.startsWith('/iocm/app/sec/v1.1.0/login')) {
          this.logins.push(got);
          const form = new URLSearchParams(got.body);
          const okCreds = form.get('appId') === 'app-1' && form.get('secret') === 'secret-1';
          res.writeHead(okCreds ? 200 : 401, { 'content-type': 'application/json' });
          res.end(okCreds ? JSON.stringify({ accessToken: 'token-1', tokenType: 'bearer', expiresIn: 3600 }) : '{}');
          return;
        }
        this.commands.push(got);
        const authorized = got.headers.authorization === 'Bearer token-1' && got.headers.app_key === 'app-1';
        res.writeHead(authorized ? 201 : 401, { 'content-type': 'application/json' });
        res.end(authorized ? JSON.stringify({ commandId: `pc-${this.next++}`, status: 'PENDING' }) : '{}');
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }
}

/** A GT06 0x15 reply to the command sent with `serverFlag`. */
function gt06Reply(serverFlag: number, text: string): string {
  const body = Buffer.from(text, 'ascii');
  const content = Buffer.alloc(1 + 4 + body.length + 2);
  content[0] = 4 + body.length;
  content.writeUInt32BE(serverFlag >>> 0, 1);
  body.copy(content, 5);
  content.writeUInt16BE(0x0002, 5 + body.length);
  return buildGt06Frame(0x15, 7, content).toString('hex');
}

async function logOf(server: GatewayTestServer, commandId: string) {
  return server.ctx.db
    .selectFrom('command_log')
    .select(['status', 'detail'])
    .where('command_id', '=', commandId)
    .orderBy('id')
    .execute();
}

async function deviceIdOf(server: GatewayTestServer, terminalId: string): Promise<string> {
  const row = await server.ctx.db
    .selectFrom('devices')
    .select('id')
    .where('terminal_id', '=', terminalId)
    .executeTakeFirstOrThrow();
  return String(row.id);
}

const pushFix = (server: GatewayTestServer, nbDeviceId: string) =>
  server.app.inject({
    method: 'POST',
    url: `/api/nb/subscribe?token=${NB_TOKEN}`,
    payload: {
      notifyType: 'deviceDataChanged',
      deviceId: nbDeviceId,
      service: { serviceId: 'Location', data: { latitude: 39.9, longitude: 116.4, time: Date.now() - 1000 } },
    },
  });

describe('NB-IoT downlink through the IoT platform', () => {
  const platform = new FakePlatform();
  let server: GatewayTestServer;
  let demo: ApiClient;

  beforeAll(async () => {
    await platform.start();
    const nbDownlink = nbDownlinkOptionsFrom({
      NB_COMMAND_URL: `${platform.url}/iocm/app/cmd/v1.4.0/deviceCommands`,
      NB_APP_ID: 'app-1',
      NB_APP_SECRET: 'secret-1',
      NB_COMMAND_RETRIES: '1',
      NB_REQUEST_TIMEOUT_MS: '3000',
    });
    server = await createGatewayTestServer(
      { commandTimeoutMs: 20_000, offlineCommandTtlHours: 2 },
      { nbDownlink, nbCallbackToken: NB_TOKEN },
    );
    demo = await demoClient(server);
  });
  afterAll(async () => {
    await server.close();
    await platform.stop();
  });

  it('live send: the platform gets the GT06 frame with auth, the pushed reply answers the command (result 1)', async () => {
    const tid = newTerminalId('gt06');
    await addDevice(server, tid, 'gt06', { nbDeviceId: 'nb-live-1', deviceType: 11 });
    expect((await pushFix(server, 'nb-live-1')).statusCode).toBe(200); // the device is online now
    const before = platform.commands.length;
    const sending = demo.post<CommandResult>('/command/add', { terminalID: tid, content: 'STATUS#' });

    const request = await waitFor(() => platform.commands[before], 10_000, 'the platform request');
    expect(platform.logins.length).toBeGreaterThan(0);
    expect(request.path).toBe('/iocm/app/cmd/v1.4.0/deviceCommands?appId=app-1');
    expect(request.headers.authorization).toBe('Bearer token-1');
    expect(request.headers.app_key).toBe('app-1');
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({
      deviceId: 'nb-live-1',
      command: { serviceId: 'Command', method: 'SEND' },
      expireTime: 20,
    });
    expect(Object.keys(body.command.paras)).toEqual(['rawData']);
    const frames = new Gt06ServerReader().push(Buffer.from(body.command.paras.rawData, 'hex'));
    expect(frames).toHaveLength(1);
    expect(frames[0].command?.text).toBe('STATUS#');
    const serverFlag = frames[0].command?.serverFlag as number;

    // The device answers; the platform forwards its bytes in a data notification.
    const pushed = await server.app.inject({
      method: 'POST',
      url: `/api/nb/subscribe?token=${NB_TOKEN}`,
      payload: {
        notifyType: 'deviceDataChanged',
        deviceId: 'nb-live-1',
        service: { serviceId: 'Raw', data: { rawData: gt06Reply(serverFlag, 'Battery:4.1V,GPS:OK,GSM:Strong') } },
      },
    });
    expect(pushed.statusCode).toBe(200);
    const res = await sending;
    expect(res.meta.success).toBe(true);
    expect(res.data).toMatchObject({ status: 'answered', result: 1, reply: 'Battery:4.1V,GPS:OK,GSM:Strong' });
    expect(String(serverFlag)).toBe(res.data.commandId);
    const log = await logOf(server, res.data.commandId);
    expect(log.map((l) => l.status)).toEqual(['pending', 'sent', 'answered']);
    expect(log[1].detail).toContain('sent through the NB-IoT platform as pc-');
  });

  it('platform down: the offline command stays pending and goes out at the next push; a commandRsp answers it', async () => {
    const tid = newTerminalId('gt06');
    await addDevice(server, tid, 'gt06', { nbDeviceId: 'nb-off-1', deviceType: 11 });
    const queued = await demo.post<CommandResult>('/command/add', { terminalID: tid, content: 'TIMER,60#' });
    expect(queued.data).toMatchObject({ status: 'pending' });
    const id = queued.data.commandId;

    platform.down = true;
    const sentBefore = platform.commands.length;
    expect((await pushFix(server, 'nb-off-1')).statusCode).toBe(200);
    const failedTry = await waitFor(
      async () => (await logOf(server, id)).find((l) => l.detail.startsWith('NB-IoT platform unreachable')),
      10_000,
      'the failed attempt in the log',
    );
    expect(failedTry.status).toBe('pending');
    expect(failedTry.detail).toContain('tried again at the next push');
    expect(platform.commands.length).toBe(sentBefore);
    const row = await server.ctx.db
      .selectFrom('commands')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');

    platform.down = false;
    expect((await pushFix(server, 'nb-off-1')).statusCode).toBe(200);
    await waitFor(
      async () =>
        (await server.ctx.db.selectFrom('commands').select('status').where('id', '=', id).executeTakeFirst())
          ?.status === 'sent',
      10_000,
      'the command sent',
    );
    const request = platform.commands.find((c) => JSON.parse(c.body).deviceId === 'nb-off-1');
    const body = JSON.parse(request?.body ?? '{}');
    expect(new Gt06ServerReader().push(Buffer.from(body.command.paras.rawData, 'hex'))[0].command?.text).toBe(
      'TIMER,60#',
    );
    expect(body.expireTime).toBeGreaterThan(3600); // the platform may hold it until our offline TTL ends

    // A third push does not send it again: it is with the platform, waiting for the device.
    const count = platform.commands.length;
    await pushFix(server, 'nb-off-1');
    const rsp = await server.app.inject({
      method: 'POST',
      url: `/api/nb/subscribe?token=${NB_TOKEN}`,
      payload: {
        notifyType: 'commandRsp',
        header: { requestId: 'r-1', deviceId: 'nb-off-1', serviceType: 'Command', method: 'SEND-RSP' },
        body: { result: 'TIMER OK' },
      },
    });
    expect(rsp.statusCode).toBe(200);
    const done = await server.ctx.db
      .selectFrom('commands')
      .select(['status', 'result', 'reply', 'attempts'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(done).toEqual({ status: 'answered', result: 1, reply: 'TIMER OK', attempts: 1 });
    expect(platform.commands.length).toBe(count);
    expect((await logOf(server, id)).map((l) => l.status)).toEqual(['pending', 'pending', 'sent', 'answered']);
  });

  it('refuses a command to an NB-IoT device without a platform deviceId (spec message)', async () => {
    const tid = newTerminalId('gt06');
    await addDevice(server, tid, 'gt06', { deviceType: 11 });
    const res = await demo.post('/command/add', { terminalID: tid, content: 'STATUS#' });
    expect(res.meta.success).toBe(false);
    expect(res.meta.message).toBe(NO_NB_DEVICE_ID);
    const rows = await server.ctx.db.selectFrom('commands').select('id').where('terminal_id', '=', tid).execute();
    expect(rows).toEqual([]);
  });

  it('two gateway processes hearing the same send request hand the command to the platform once', async () => {
    const tid = newTerminalId('gt06');
    await addDevice(server, tid, 'gt06', { nbDeviceId: 'nb-two-1', deviceType: 11 });
    // Queued while the device is silent: nothing goes out yet.
    const queued = await demo.post<CommandResult>('/command/add', { terminalID: tid, content: 'SOS,A,1#' });
    expect(queued.data).toMatchObject({ status: 'pending' });
    const id = queued.data.commandId;
    // A second process: its own dispatcher state over the same database.
    const other = new NbCommands(
      server.ctx.db,
      new CommandStore(server.ctx.db, server.ctx.bus),
      server.gateway.nb.options,
      20_000,
      () => {},
    );
    const here = server.gateway.nb;
    const device = await here.loadDevice(await deviceIdOf(server, tid));
    const row = await server.ctx.db.selectFrom('commands').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const before = platform.commands.length;
    await Promise.all([here.deliver(device!, row), other.deliver(device!, row), other.deliver(device!, row)]);
    expect(platform.commands.length - before).toBe(1);
    const log = await logOf(server, id);
    expect(log.map((l) => l.status)).toEqual(['pending', 'sent']);
    // Delivered: a later request (a push, another process) does not send it again.
    await other.deliver(device!, row);
    expect(platform.commands.length - before).toBe(1);
    const claims = await sql<{ n: number }>`SELECT count(*)::int AS n FROM command_claims`.execute(server.ctx.db);
    expect(claims.rows[0].n).toBe(0);
  });

  it('another process (or this one after a restart) matches replies and platform notices to their own command', async () => {
    const tid = newTerminalId('jt808');
    // NB-IoT types (9, 11) have no oil cut (RELAY would be refused, spec §8): these tests send queries.
    await addDevice(server, tid, 'jt808', { nbDeviceId: 'nb-808-1', deviceType: 9 });
    const a = (await demo.post<CommandResult>('/command/add', { terminalID: tid, content: 'WHERE#' })).data;
    const b = (await demo.post<CommandResult>('/command/add', { terminalID: tid, content: 'STATUS#' })).data;
    expect([a.status, b.status]).toEqual(['pending', 'pending']);
    const before = platform.commands.length;
    expect((await pushFix(server, 'nb-808-1')).statusCode).toBe(200); // both go out
    await waitFor(() => platform.commands.length - before === 2, 10_000, 'both commands at the platform');
    // The platform has the requests; the gateway records 'sent' (with the platform's id) once each one answered.
    await waitFor(
      async () =>
        (
          await server.ctx.db
            .selectFrom('commands')
            .select('status')
            .where('id', 'in', [a.commandId, b.commandId])
            .execute()
        ).every((r) => r.status === 'sent'),
      10_000,
      'both commands recorded as sent',
    );
    const sent = platform.commands.slice(before).map((c) => {
      const [frame] = new Jt808ServerReader().push(Buffer.from(JSON.parse(c.body).command.paras.rawData, 'hex'));
      return { serial: frame.serial, text: frame.text };
    });
    expect(sent.map((x) => x.text)).toEqual(['WHERE#', 'STATUS#']);

    // A fresh dispatcher knows nothing in memory: only what the commands table holds.
    const other = new NbCommands(
      server.ctx.db,
      new CommandStore(server.ctx.db, server.ctx.bus),
      server.gateway.nb.options,
      20_000,
      () => {},
    );
    const device = await other.loadDevice(await deviceIdOf(server, tid));
    // The device answers the second command first: its general response names that frame's serial.
    expect(await other.onFrameReply(device!, { text: '', answeredSerial: sent[1].serial, result: 0 })).toBe(true);
    const statusOf = async (id: string) =>
      await server.ctx.db
        .selectFrom('commands')
        .select(['status', 'result'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    expect(await statusOf(b.commandId)).toEqual({ status: 'answered', result: 1 });
    expect((await statusOf(a.commandId)).status).toBe('sent');
    // The platform's status notice names the first command by the platform's own id.
    const row = await server.ctx.db
      .selectFrom('commands')
      .select('platform_command_id')
      .where('id', '=', a.commandId)
      .executeTakeFirstOrThrow();
    expect(row.platform_command_id).toMatch(/^pc-/);
    expect(await other.onPlatformStatus(device!, row.platform_command_id as string, 'SUCCESSFUL', 'OK')).toBe(true);
    expect(await statusOf(a.commandId)).toEqual({ status: 'answered', result: 1 });
  });
});

describe('NB-IoT commands without a platform configured', () => {
  let server: GatewayTestServer;
  let demo: ApiClient;

  beforeAll(async () => {
    server = await createGatewayTestServer(
      { commandTimeoutMs: 60_000, offlineCommandTtlHours: 2 },
      { nbCallbackToken: NB_TOKEN },
    );
    demo = await demoClient(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('a live send fails at once with the reason; an offline one stays pending and says why', async () => {
    expect(server.gateway.nb.options).toBeNull();
    const tid = newTerminalId('jt808');
    await addDevice(server, tid, 'jt808', { nbDeviceId: 'nb-none-1', deviceType: 9 });
    expect((await pushFix(server, 'nb-none-1')).statusCode).toBe(200);

    // Live: answered without waiting the 60 s timeout (a timeout would be status 'timeout', result 2).
    const live = await demo.post<CommandResult>('/command/add', { terminalID: tid, content: 'WHERE#' });
    expect(live.data).toMatchObject({ status: 'failed', result: 3 });
    expect((await logOf(server, live.data.commandId)).at(-1)).toEqual({ status: 'failed', detail: NO_PLATFORM });

    // Offline: queued, and the record says why it does not leave.
    const queued = await demo.post<CommandResult>('/command/add', {
      terminalID: tid,
      content: 'TIMER,60#',
      offline: true,
    });
    expect(queued.data).toMatchObject({ status: 'pending' });
    const note = await waitFor(
      async () => (await logOf(server, queued.data.commandId)).find((l) => l.detail.includes(NO_PLATFORM)),
      10_000,
      'the reason in the log',
    );
    expect(note).toEqual({ status: 'pending', detail: `not sent: ${NO_PLATFORM}` });
    // Further pushes do not repeat the note.
    await pushFix(server, 'nb-none-1');
    const device = await server.gateway.nb.loadDevice(await deviceIdOf(server, tid));
    expect(device).not.toBeNull();
    if (device) await server.gateway.nb.onPush(device);
    const notes = (await logOf(server, queued.data.commandId)).filter((l) => l.detail.includes(NO_PLATFORM));
    expect(notes).toHaveLength(1);
  });
});

describe('NB-IoT downlink settings', () => {
  it('is off without NB_COMMAND_URL and checks what it is given', () => {
    expect(nbDownlinkOptionsFrom({})).toBeNull();
    expect(nbDownlinkOptionsFrom({ NB_COMMAND_URL: 'http://p/cmd', NB_ACCESS_TOKEN: 't' })).toMatchObject({
      accessToken: 't',
      authUrl: undefined,
      serviceId: 'Command',
      method: 'SEND',
      paraName: 'rawData',
      encoding: 'frame',
      retries: 2,
    });
    expect(
      nbDownlinkOptionsFrom({
        NB_COMMAND_URL: 'https://p:8743/iocm/app/cmd/v1.4.0/deviceCommands',
        NB_APP_ID: 'a',
        NB_APP_SECRET: 's',
      })?.authUrl,
    ).toBe('https://p:8743/iocm/app/sec/v1.1.0/login');
    expect(() => nbDownlinkOptionsFrom({ NB_COMMAND_URL: 'ftp://p' })).toThrow(/NB_COMMAND_URL/);
    expect(() => nbDownlinkOptionsFrom({ NB_COMMAND_URL: 'http://p', NB_APP_ID: 'a' })).toThrow(/NB_APP_SECRET/);
    expect(() => nbDownlinkOptionsFrom({ NB_COMMAND_URL: 'http://p', NB_COMMAND_ENCODING: 'b64' })).toThrow(
      /NB_COMMAND_ENCODING/,
    );
  });
});
