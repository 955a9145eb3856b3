import { MemoryBus } from './memory.ts';
import type { EventBus } from './types.ts';

export type { BusHandler, EventBus } from './types.ts';
export { MemoryBus } from './memory.ts';

/** The bus for this process: in-process unless BUS_URL names a NATS server (a later issue adds that). */
export async function createBus(busUrl: string | undefined, onError?: (err: unknown, subject: string) => void): Promise<EventBus> {
  if (busUrl) throw new Error('BUS_URL (NATS) is not supported yet; unset it to use the in-process bus');
  return new MemoryBus(onError);
}
