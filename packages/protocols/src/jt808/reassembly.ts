import type { Jt808Context } from './context.ts';
import type { Jt808Header } from './frame.ts';

/** Most parts a sub-packaged message may announce (a 1 MiB photo in 1023-byte parts needs ~1025). */
const MAX_PARTS = 4096;

/**
 * Stores one part of a sub-packaged message. Returns the complete body when the last part arrives,
 * null while parts are missing, or an error text. Memory is bounded: at most ctx.maxPendingMessages
 * messages in progress (the oldest is dropped), ctx.maxMessageBytes per message, ctx.pendingTimeoutMs age.
 */
export function reassemble(ctx: Jt808Context, header: Jt808Header, body: Uint8Array): Uint8Array | null | string {
  const { packageTotal: total, packageIndex: index } = header;
  if (total > MAX_PARTS) return `sub-package total ${total} exceeds ${MAX_PARTS}`;
  if (index < 1 || index > total) return `sub-package index ${index} outside 1..${total}`;
  const now = ctx.now();
  for (const [key, pending] of ctx.pending) {
    if (now - pending.startedAt > ctx.pendingTimeoutMs) ctx.pending.delete(key);
  }
  // Parts carry consecutive serials, so the first part's serial identifies the message.
  const firstSerial = (header.serial - (index - 1)) & 0xffff;
  const key = `${header.messageId}:${firstSerial}:${total}`;
  let pending = ctx.pending.get(key);
  if (!pending) {
    while (ctx.pending.size >= ctx.maxPendingMessages) {
      const oldest = ctx.pending.keys().next().value;
      if (oldest === undefined) break;
      ctx.pending.delete(oldest);
    }
    pending = { messageId: header.messageId, total, parts: new Array(total), received: 0, bytes: 0, startedAt: now };
    ctx.pending.set(key, pending);
  }
  if (pending.parts[index - 1] === undefined) {
    if (pending.bytes + body.length > ctx.maxMessageBytes) {
      ctx.pending.delete(key);
      return `sub-packaged message larger than ${ctx.maxMessageBytes} bytes`;
    }
    pending.parts[index - 1] = body.slice();
    pending.received++;
    pending.bytes += body.length;
  }
  if (pending.received < total) return null;
  ctx.pending.delete(key);
  const out = new Uint8Array(pending.bytes);
  let offset = 0;
  for (const part of pending.parts) {
    if (part) {
      out.set(part, offset);
      offset += part.length;
    }
  }
  return out;
}
