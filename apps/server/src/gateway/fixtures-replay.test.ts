// Frames of real trackers (Traccar's GT06 and JT/T 808 decoder vectors, kept in packages/protocols/fixtures) replayed over
// TCP into the gateway: every fix the codecs find in them (after the device identified itself on that
// connection, as a session requires) ends up in positions for the registered device.
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildJt808Frame,
  createGt06Context,
  createJt808Context,
  type DecodeResult,
  decodeGt06,
  decodeJt808,
  fromHex,
  Gt06Splitter,
  Jt808Splitter,
  jt808Target,
} from '@carhere/protocols';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectReason } from './ingest/rules.ts';
import { addDevice, createGatewayTestServer, type GatewayTestServer, waitFor } from './test-support.ts';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../packages/protocols/fixtures/traccar');

interface Case {
  test: string;
  hex: string;
  model?: string;
}

interface Connection {
  terminalId: string;
  /** JT/T 808 header version of the connection's frames (the authentication frame is written the same way). */
  version: '2011' | '2013' | '2019';
  frames: Buffer[];
  /** time|lat|lon of every fix the gateway should store */
  expected: string[];
}

const key = (time: number, lat: number, lon: number) => `${time}|${lat.toFixed(6)}|${lon.toFixed(6)}`;

/**
 * Splits the cases into connections the way devices would use them: a GT06 connection starts at each login,
 * a JT/T 808 connection whenever the terminal number changes. Frames before a GT06 login are left out (no
 * session), as are the cases Traccar runs with a model override. The fixes to expect are what the protocols'
 * splitter and decoder find in each connection's bytes (a few vectors are cut short of their trailer, which
 * only a later frame completes on the wire).
 */
function connectionsOf(protocol: 'gt06' | 'jt808', cases: Case[]): Connection[] {
  const out: Connection[] = [];
  let current: Connection | null = null;
  for (const c of cases) {
    if (c.test !== 'testDecode' || c.model) continue;
    const frame = fromHex(c.hex);
    if (!frame) continue;
    const probe =
      protocol === 'gt06' ? decodeGt06(frame, createGt06Context()) : decodeJt808(frame, createJt808Context());
    const id = probe.ok ? probe.message.terminalId : null;
    const starts =
      protocol === 'gt06' ? probe.ok && probe.message.messageType === 'login' && id : id && id !== current?.terminalId;
    if (starts && id) {
      current = { terminalId: id, version: (probe.ok && probe.message.version) || '2013', frames: [], expected: [] };
      out.push(current);
    }
    current?.frames.push(frame);
  }
  const now = Date.now();
  for (const conn of out) {
    const splitter = protocol === 'gt06' ? new Gt06Splitter() : new Jt808Splitter();
    // The gateway verifies checksums by default: frames whose check fails are not expected.
    const gt06 = createGt06Context({ requireChecksum: true });
    const jt808 = createJt808Context({ requireChecksum: true });
    // A GT06 connection is the device's only after a login whose CRC holds.
    let identified = protocol === 'jt808';
    for (const frame of splitter.push(Buffer.concat(conn.frames))) {
      const res: DecodeResult = protocol === 'gt06' ? decodeGt06(frame, gt06) : decodeJt808(frame, jt808);
      if (!res.ok) continue;
      if (res.message.messageType === 'login') identified = true;
      if (!identified) continue;
      for (const p of res.message.positions)
        if (!rejectReason(p, now)) conn.expected.push(key(p.time.getTime(), p.lat, p.lon));
    }
  }
  return out;
}

const AUTH_CODE = 'replay-code-01';

/** JT/T 808 terminals authenticate first (0x0102 with the code the platform issued; 2019 prefixes its length). */
function authFrame(conn: Connection): Buffer {
  const code = Buffer.from(AUTH_CODE, 'ascii');
  const body = conn.version === '2019' ? Buffer.concat([Buffer.from([code.length]), code]) : code;
  return buildJt808Frame(0x0102, jt808Target(conn.terminalId, conn.version), 0, body);
}

/** Sends a connection's frames, waits until `done` says the gateway has handled them, then hangs up. */
function replay(port: number, frames: Buffer[], done: () => Promise<unknown>): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, async () => {
      socket.write(Buffer.concat(frames));
      try {
        await done();
      } catch (err) {
        reject(err);
      }
      socket.once('close', () => resolvePromise());
      socket.end();
    });
    socket.on('data', () => {});
    socket.on('error', reject);
  });
}

const available = existsSync(resolve(fixtures, 'gt06-decoder.json'));

describe.skipIf(!available)('Traccar vectors replayed over TCP', () => {
  let server: GatewayTestServer;
  beforeAll(async () => {
    server = await createGatewayTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  for (const [protocol, file] of [
    ['gt06', 'gt06-decoder.json'],
    ['jt808', 'huabao-decoder.json'],
  ] as const) {
    it(`${protocol}: every fix decoded from the vectors is stored for its device`, async () => {
      const cases = (JSON.parse(readFileSync(resolve(fixtures, file), 'utf8')) as { cases: Case[] }).cases;
      const connections = connectionsOf(protocol, cases);
      const devices = new Map<string, string>();
      for (const c of connections) {
        if (!devices.has(c.terminalId)) devices.set(c.terminalId, await addDevice(server, c.terminalId, protocol));
        if (protocol === 'jt808') {
          await server.ctx.db
            .updateTable('devices')
            .set({ jt808_auth_code: AUTH_CODE })
            .where('id', '=', devices.get(c.terminalId) as string)
            .execute();
          c.frames.unshift(authFrame(c));
        }
      }
      const port = protocol === 'gt06' ? server.gateway.ports.gt06 : server.gateway.ports.jt808;
      const storedKeys = async (deviceId: string) => {
        const rows = await server.ctx.db
          .selectFrom('positions')
          .select(['time', 'lat', 'lon'])
          .where('device_id', '=', deviceId)
          .execute();
        return new Set(rows.map((r) => key(r.time.getTime(), r.lat, r.lon)));
      };
      // One connection after the other, each held open until its fixes are in (a device's next connection
      // would replace it), as a device reconnecting would.
      for (const c of connections) {
        const id = devices.get(c.terminalId) as string;
        await replay(port, c.frames, async () => {
          if (c.expected.length === 0) return new Promise((r) => setTimeout(r, 30));
          return waitFor(
            async () => {
              const stored = await storedKeys(id);
              return c.expected.every((k) => stored.has(k));
            },
            15_000,
            `fixes of a ${protocol} connection of ${c.terminalId}`,
          );
        });
      }
      const expected = new Map<string, Set<string>>();
      for (const c of connections) {
        const id = devices.get(c.terminalId) as string;
        const set = expected.get(id) ?? new Set();
        for (const e of c.expected) set.add(e);
        expected.set(id, set);
      }
      const total = [...expected.values()].reduce((n, s) => n + s.size, 0);
      expect(total).toBeGreaterThan(10);
      await waitFor(
        async () => {
          const rows = await server.ctx.db
            .selectFrom('positions')
            .select(['device_id', 'time', 'lat', 'lon'])
            .where('device_id', 'in', [...devices.values()])
            .execute();
          const stored = new Set(rows.map((r) => `${r.device_id}|${key(r.time.getTime(), r.lat, r.lon)}`));
          const missing = [...expected].flatMap(([id, set]) => [...set].filter((k) => !stored.has(`${id}|${k}`)));
          return missing.length === 0;
        },
        10_000,
        `${total} fixes of ${protocol} vectors stored`,
      );
    });
  }
});
