// /api/nb/subscribe and /api/ccs/subscribe — NB-IoT platform push callbacks (public: the IoT platform calls
// them without a session). Input is validated strictly; the shared token NB_CALLBACK_TOKEN is required, and
// while it is not configured every push is refused (503, logged).
// The device is found by devices.nb_device_id; data is either a raw tracker frame (rawData, hex or base64,
// decoded with the GT06 / JT/T 808 codecs) or plain fields (latitude, longitude, speed, …).
// Command replies arrive here too: a command reply frame inside pushed data, a `commandRsp` notification, or the
// platform's command status notification ({deviceId, commandId, result: {resultCode, resultDetail}}, no
// notifyType). A push also tells the gateway the device is reachable: its pending commands go out (gateway/nb).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { CommandReply, DecodedMessage, Position } from '@carhere/protocols';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Gateway } from '../../gateway/component.ts';
import type { DeviceRef } from '../../gateway/directory.ts';
import { NbCommands } from '../../gateway/nb/commands.ts';
import { decodeStandalone } from '../../gateway/protocol-codecs.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { ApiError, badRequest, notFound } from '../../http/errors.ts';
import { timeInRange } from '../../http/input.ts';
import type { App } from '../../http/types.ts';
import { callbackSettings } from '../subscribe/settings.ts';

const serviceSchema = z.object({
  serviceId: z.string().max(64).optional(),
  serviceType: z.string().max(64).optional(),
  eventTime: z.string().max(40).optional(),
  data: z.record(z.string().max(64), z.unknown()).optional(),
});

export const notificationSchema = z.object({
  /** Absent only in the platform's command status notification (which has commandId and result). */
  notifyType: z.string().min(1).max(64).optional(),
  /** In `header` for commandRsp. */
  deviceId: z.string().trim().min(1).max(64).optional(),
  gatewayId: z.string().max(64).optional(),
  requestId: z.string().max(128).optional(),
  service: serviceSchema.optional(),
  services: z.array(serviceSchema).max(50).optional(),
  /** commandRsp: header and the device's answer. */
  header: z
    .object({
      requestId: z.string().max(128).optional(),
      deviceId: z.string().trim().min(1).max(64).optional(),
      serviceType: z.string().max(64).optional(),
      method: z.string().max(64).optional(),
    })
    .optional(),
  body: z.record(z.string().max(64), z.unknown()).optional(),
  /** Command status notification (callbackUrl of the command). */
  commandId: z.string().max(128).optional(),
  result: z.object({ resultCode: z.string().min(1).max(64), resultDetail: z.unknown().optional() }).optional(),
});
type Notification = z.infer<typeof notificationSchema>;
type ServiceData = z.infer<typeof serviceSchema>;

const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

/** '20170214T170220Z' (the IoT platforms' compact form), ISO-8601, or epoch ms / s. */
export function parsePushTime(v: unknown): number | null {
  const ms = rawPushTime(v);
  // A time the database cannot store is no time: the push's own receipt time stands in.
  return ms !== null && timeInRange(ms) ? ms : null;
}

function rawPushTime(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v < 1e11 ? v * 1000 : v;
  if (typeof v !== 'string' || v === '') return null;
  const compact = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(v);
  if (compact) {
    const [, y, mo, d, h, mi, s] = compact.map(Number);
    return Date.UTC(y, mo - 1, d, h, mi, s);
  }
  if (/^\d+$/.test(v)) return rawPushTime(Number(v));
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : null;
}

function rawBytes(raw: unknown): Buffer | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 8192) return null;
  if (/^([0-9a-fA-F]{2})+$/.test(raw)) return Buffer.from(raw, 'hex');
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(raw)) return Buffer.from(raw, 'base64');
  return null;
}

/** Plain fields → one fix (or none). */
function positionOf(data: Record<string, unknown>, fallbackTime: number): Position | null {
  const lat = num(data.latitude ?? data.lat);
  const lon = num(data.longitude ?? data.lon ?? data.lng);
  if (lat === null || lon === null) return null;
  const attributes: Position['attributes'] = {};
  const battery = num(data.batteryLevel ?? data.battery);
  if (battery !== null) attributes.batteryLevel = battery;
  if (typeof data.locationType === 'string') attributes.locationType = data.locationType;
  return {
    time: new Date(parsePushTime(data.time ?? data.gpsTime) ?? fallbackTime),
    lat,
    lon,
    altitude: num(data.altitude) ?? 0,
    speedKmh: num(data.speed) ?? 0,
    course: num(data.course ?? data.direction) ?? 0,
    valid: data.valid === undefined ? true : data.valid === true || data.valid === 1 || data.valid === '1',
    alarms: [],
    attributes,
  };
}

type PushMessage = Pick<DecodedMessage, 'positions' | 'alarms' | 'attributes'> & {
  commandReply?: CommandReply | null;
};

function messagesOf(services: ServiceData[], protocol: number, now: number): PushMessage[] {
  const out: PushMessage[] = [];
  for (const s of services) {
    const data = s.data ?? {};
    const eventTime = parsePushTime(s.eventTime) ?? now;
    const raw = rawBytes(data.rawData ?? data.raw ?? data.payload);
    if (raw) {
      const decoded = decodeStandalone(protocol, raw);
      if (!decoded) throw badRequest('invalidParam', { field: 'rawData' });
      out.push(...decoded);
      continue;
    }
    const position = positionOf(data, eventTime);
    const attributes: PushMessage['attributes'] = {};
    const battery = num(data.batteryLevel ?? data.battery);
    if (!position && battery !== null) attributes.batteryLevel = battery;
    out.push({ positions: position ? [position] : [], alarms: [], attributes });
  }
  return out;
}

const REPLY_FIELDS = ['reply', 'result', 'text', 'content', 'response', 'message'];

/** The device's answer in a commandRsp body or a status notification's resultDetail: a frame or text. */
function replyOf(value: unknown, protocol: number): { frame: CommandReply | null; text: string | null } {
  if (value === null || value === undefined) return { frame: null, text: null };
  if (typeof value === 'string') {
    const raw = rawBytes(value);
    const frame = raw ? decodeStandalone(protocol, raw)?.find((m) => m.commandReply)?.commandReply : undefined;
    return frame ? { frame, text: null } : { frame: null, text: value.slice(0, 500) };
  }
  if (typeof value !== 'object') return { frame: null, text: String(value) };
  const data = value as Record<string, unknown>;
  const raw = rawBytes(data.rawData ?? data.raw ?? data.payload);
  if (raw) {
    const frame = decodeStandalone(protocol, raw)?.find((m) => m.commandReply)?.commandReply;
    if (frame) return { frame, text: null };
  }
  for (const field of REPLY_FIELDS) {
    const v = data[field];
    if (typeof v === 'string' && v !== '') return { frame: null, text: v.slice(0, 500) };
  }
  const json = JSON.stringify(data);
  return { frame: null, text: json === '{}' ? null : json.slice(0, 500) };
}

/** Command replies and status changes for an NB-IoT device; true when one matched a command. */
async function commandNotice(gateway: Gateway, device: DeviceRef, body: Notification): Promise<boolean> {
  if (body.commandId && body.result) {
    const reply = replyOf(body.result.resultDetail, device.protocol);
    if (reply.frame) return gateway.nb.onFrameReply(device, reply.frame);
    return gateway.nb.onPlatformStatus(device, body.commandId, body.result.resultCode, reply.text);
  }
  const reply = replyOf(body.body, device.protocol);
  if (reply.frame) return gateway.nb.onFrameReply(device, reply.frame);
  if (reply.text === null) return false;
  const platformId = (body.body?.commandId as string | undefined) ?? body.header?.requestId;
  return gateway.nb.onTextReply(device, reply.text, typeof platformId === 'string' ? platformId : undefined);
}

const digest = (v: string) => createHash('sha256').update(v).digest();

/**
 * The token the push carries (x-callback-token header or ?token=) against NB_CALLBACK_TOKEN, in constant time:
 * both sides are hashed to 32 bytes first, so neither the comparison nor an early length check tells a caller
 * how much of a guess was right.
 */
export function callbackTokenMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

function givenToken(req: FastifyRequest): string {
  const q = req.query as { token?: unknown } | undefined;
  return String(req.headers['x-callback-token'] ?? q?.token ?? '');
}

export async function nbRoutes(app: App, ctx: AppContext): Promise<void> {
  const handle = async (req: FastifyRequest, body: Notification, source: 'nb' | 'ccs') => {
    const gateway = ctx.services.gateway;
    if (!gateway) throw new ApiError(503, 'serverBusy', 503);
    // NB_CALLBACK_TOKEN (the gateway's option) wins; else the token stored on the subscription settings screen.
    const settings = await callbackSettings(ctx);
    const expected = gateway.options.nbCallbackToken ?? settings.callbackToken;
    if (!expected) {
      // No token configured: the callbacks stay closed (anyone could push positions for any device otherwise).
      req.log.warn({ source, remote: req.ip }, 'NB-IoT push refused: NB_CALLBACK_TOKEN is not set');
      gateway.log.write({
        terminalId: String(body.deviceId ?? body.header?.deviceId ?? ''),
        deviceId: null,
        protocol: source,
        event: 'refused',
        remote: req.ip,
        detail: 'NB_CALLBACK_TOKEN is not set: NB-IoT callbacks are closed',
      });
      throw new ApiError(403, 'nb.callbackTokenUnset', 403);
    }
    if (!callbackTokenMatches(givenToken(req), expected)) {
      req.log.warn({ source, remote: req.ip }, 'NB-IoT push refused: wrong or missing callback token');
      throw new ApiError(403, 'noPermissionAccount', 403);
    }
    const nbId = body.deviceId ?? body.header?.deviceId;
    if (!nbId) throw badRequest('invalidParam', { field: 'deviceId' });
    const isStatus = body.notifyType === undefined && body.commandId !== undefined && body.result !== undefined;
    if (body.notifyType === undefined && !isStatus) throw badRequest('invalidParam', { field: 'notifyType' });
    const isReply = isStatus || body.notifyType === 'commandRsp';
    if (!isReply && !settings.notifyTypes.has(body.notifyType as string))
      return ok({ accepted: true, stored: 0, alarms: 0 });
    const device = await gateway.directory.findByNbDeviceId(nbId);
    if (!device) {
      gateway.log.write({
        terminalId: nbId,
        deviceId: null,
        protocol: source,
        event: 'refused',
        detail: 'unknown NB deviceId',
      });
      throw notFound();
    }
    if (isReply) {
      await commandNotice(gateway, device, body);
      return ok({ accepted: true, stored: 0, alarms: 0 });
    }
    const services = body.services ?? (body.service ? [body.service] : []);
    let stored = 0;
    let alarms = 0;
    const replies: CommandReply[] = [];
    for (const msg of messagesOf(services, device.protocol, Date.now())) {
      const r = await gateway.push.ingest(device, msg, source);
      stored += r.stored;
      alarms += r.alarms;
      if (msg.commandReply) replies.push(msg.commandReply);
    }
    // The directory's row is the device (found by its platform deviceId, so an NB-IoT device): no re-read.
    if (NbCommands.isNb(device)) {
      // A reply inside the data is matched before answering the platform; pending commands go out afterwards.
      for (const reply of replies) await gateway.nb.onFrameReply(device, reply);
      gateway.nb.run(gateway.nb.onPush(device));
    }
    return ok({ accepted: true, stored, alarms });
  };

  const route = (path: string, source: 'nb' | 'ccs') =>
    app.post(
      path,
      {
        config: { public: true },
        schema: {
          tags: ['nb-iot'],
          summary: `NB-IoT platform push callback (${source}); public, validated, requires the shared token NB_CALLBACK_TOKEN`,
          security: [],
          body: notificationSchema,
          querystring: z.object({ token: z.string().max(200).optional() }),
          response: { 200: envelopeOf(z.object({ accepted: z.boolean(), stored: z.number(), alarms: z.number() })) },
        },
      },
      async (req) => handle(req, req.body, source),
    );
  route('/nb/subscribe', 'nb');
  route('/ccs/subscribe', 'ccs');
}
