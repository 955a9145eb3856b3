// Storing what a terminal uploads (JT/T 808 0x0801, reassembled by the decoder): bounded in size, linked to the
// record-audio command that asked for it, announced on the bus so open screens refresh.
import { matchCommand } from '@carhere/domain';
import type { MediaUpload, Position } from '@carhere/protocols';
import type { AppContext } from '../../context.ts';
import type { DeviceRef } from '../../gateway/directory.ts';
import { mediaDurationMs } from './media.ts';

/** A command answered up to this long before the recording arrives may have asked for it (LY runs ≤ 300 s). */
const COMMAND_WINDOW_MS = 30 * 60_000;

/** The gateway's sub-package reassembly bound (createJt808Context's maxMessageBytes): nothing larger arrives. */
export const RECORDING_BYTES_CEILING = 1024 * 1024;

export type StoreOutcome = { stored: true; id: string; commandId: string | null } | { stored: false; reason: string };

/**
 * The command that asked for a recording: the device's newest record-audio command (catalogue id recordAudio)
 * sent within the window before it arrived. Only for uploads whose event is 0 (the platform's command).
 */
async function askingCommand(ctx: Pick<AppContext, 'db'>, deviceId: string, at: Date): Promise<string | null> {
  const since = new Date(at.getTime() - COMMAND_WINDOW_MS);
  const rows = await ctx.db
    .selectFrom('commands')
    .select(['id', 'content'])
    .where('device_id', '=', deviceId)
    .where('created_at', '>=', since)
    .where('created_at', '<=', at)
    .where('status', 'in', ['sent', 'answered'])
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  const row = rows.find((r) => matchCommand(r.content)?.id === 'recordAudio');
  return row ? String(row.id) : null;
}

export async function storeRecording(
  ctx: Pick<AppContext, 'db' | 'config'>,
  device: Pick<DeviceRef, 'id' | 'terminalId'>,
  media: MediaUpload,
  position: Position | null,
  receivedAt: number,
): Promise<StoreOutcome> {
  const limit = Math.min(ctx.config.recordingMaxBytes, RECORDING_BYTES_CEILING);
  if (media.data.length === 0) return { stored: false, reason: 'empty file' };
  if (media.data.length > limit) return { stored: false, reason: `larger than ${limit} bytes` };
  const at = new Date(receivedAt);
  const data = Buffer.from(media.data);
  const commandId = media.event === 0 ? await askingCommand(ctx, device.id, at) : null;
  const row = await ctx.db
    .insertInto('recordings')
    .values({
      device_id: device.id,
      terminal_id: device.terminalId,
      media_id: media.id,
      media_type: media.type,
      format: media.format,
      event: media.event,
      channel: media.channel,
      size: data.length,
      duration_ms: mediaDurationMs(media.format, data),
      command_id: commandId,
      lat: position?.valid ? position.lat : null,
      lon: position?.valid ? position.lon : null,
      data,
      received_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { stored: true, id: String(row.id), commandId };
}

/** Recordings per command, for the command records ('the recording this command produced'). */
export async function recordingsOfCommands(
  ctx: Pick<AppContext, 'db'>,
  commandIds: string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (commandIds.length === 0) return out;
  const rows = await ctx.db
    .selectFrom('recordings')
    .select(['id', 'command_id'])
    .where('command_id', 'in', commandIds)
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const key = String(r.command_id);
    out.set(key, [...(out.get(key) ?? []), String(r.id)]);
  }
  return out;
}
