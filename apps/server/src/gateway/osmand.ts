// The OsmAnd HTTP protocol listener (phones as trackers: Traccar Client, OsmAnd's live tracking). One fix per
// request, as query / form parameters or the JSON body of Traccar Client 9+ (decoded by @carhere/protocols), stored
// through the same ingest as a pushed NB-IoT message (push.ts: prepareMessage rules, batcher, live bus). The phone
// gets 200 once the fix is committed, so it resends what was not stored. Only registered devices are accepted;
// unknown identifiers are answered 404 and written to device_log as `refused` (at most once a minute per id), as
// unknown GT06 / JT/T 808 terminals are.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { decodeOsmandJson, decodeOsmandParams, type OsmandDecodeResult } from '@carhere/protocols';
import type { DeviceLog } from './device-log.ts';
import type { DeviceDirectory, DeviceRef } from './directory.ts';
import type { PushIngest } from './push.ts';

/** Largest request body read (a Traccar Client record is well under 2 KB). */
const MAX_BODY_BYTES = 64 * 1024;

export interface OsmandListenerContext {
  directory: DeviceDirectory;
  push: PushIngest;
  log: DeviceLog;
  /** A registered device reported (first report of a never-activated device activates it). */
  onDevice(device: DeviceRef): void;
  onError(err: unknown): void;
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BodyTooLarge());
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Decodes one request: JSON body, form body, or query parameters (form fields win over the query's). */
export async function decodeOsmandRequest(req: IncomingMessage, now: number): Promise<OsmandDecodeResult> {
  const url = new URL(req.url ?? '/', 'http://phone');
  const query = Object.fromEntries(url.searchParams);
  if (req.method !== 'POST') return decodeOsmandParams(query, now);
  const body = await readBody(req);
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  const trimmed = body.trim();
  if (type.includes('json') || (trimmed.startsWith('{') && !type.includes('form'))) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      return { ok: false, error: 'bad JSON' };
    }
    return decodeOsmandJson(parsed, now);
  }
  return decodeOsmandParams({ ...query, ...Object.fromEntries(new URLSearchParams(body)) }, now);
}

export class OsmandListener {
  private server: Server | null = null;
  private boundPort = 0;

  constructor(
    private readonly port: number,
    private readonly host: string,
    private readonly ctx: OsmandListenerContext,
  ) {}

  async start(): Promise<number> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err) => {
        this.ctx.onError(err);
        answer(res, 503, 'Service Unavailable');
      });
    });
    // Phones keep connections alive between fixes; an idle one is closed after a while.
    server.keepAliveTimeout = 65_000;
    server.requestTimeout = 30_000;
    server.on('error', (err) => this.ctx.onError(err));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: this.port, host: this.host }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    const addr = server.address();
    this.boundPort = typeof addr === 'object' && addr ? addr.port : this.port;
    return this.boundPort;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'POST') return answer(res, 405, 'Method Not Allowed');
    const now = Date.now();
    let decoded: OsmandDecodeResult;
    try {
      decoded = await decodeOsmandRequest(req, now);
    } catch (err) {
      if (err instanceof BodyTooLarge) return answer(res, 413, 'Payload Too Large');
      throw err;
    }
    if (!decoded.ok) return answer(res, 400, `Bad Request: ${decoded.error}`);
    const { report } = decoded;
    const remote = req.socket.remoteAddress ?? '';
    const device = await this.ctx.directory.find(report.terminalId);
    if (!device || device.deleted) {
      this.ctx.log.write({
        terminalId: report.terminalId.slice(0, 64),
        deviceId: null,
        protocol: 'osmand',
        event: 'refused',
        remote,
        detail: 'unknown device',
      });
      return answer(res, 404, 'Not Found: unknown device');
    }
    this.ctx.onDevice(device);
    await this.ctx.push.ingest(
      device,
      { positions: report.position ? [report.position] : [], alarms: [], attributes: report.attributes },
      'osmand',
    );
    answer(res, 200, 'OK');
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function answer(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}
