import { MemoryBus } from './memory.ts';
import { NatsBus } from './nats.ts';
import type { EventBus } from './types.ts';

export type { EventBus } from './types.ts';

/** The bus for this process: in-process by default, NATS when BUS_URL names a server (nats://host:port). */
export async function createBus(
  busUrl: string | undefined,
  onError?: (err: unknown, subject: string) => void,
  prefix = '',
): Promise<EventBus> {
  if (busUrl) {
    if (!busUrl.startsWith('nats://')) throw new Error(`BUS_URL must be a nats:// URL, got "${busUrl}"`);
    return NatsBus.connect(busUrl, onError, prefix);
  }
  return new MemoryBus(onError);
}
