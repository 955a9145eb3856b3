// Ingest for devices that arrive without a TCP session: NB-IoT platform push callbacks. Same rules as a
// session (prepareMessage), and the caller learns when the data is durable.
import type { DecodedMessage } from '@carhere/protocols';
import type { DeviceRef } from './directory.ts';
import type { IngestBatcher } from './ingest/batcher.ts';
import { prepareMessage } from './ingest/prepare.ts';
import { type DerivedAlarmMemory, newDerivedAlarmMemory } from './ingest/rules.ts';
import type { DeviceStateWriter } from './ingest/state-writer.ts';

export interface PushResult {
  stored: number;
  rejected: number;
  alarms: number;
}

/** A pushed device counts as online again after this long without a push. */
const ONLINE_REFRESH_MS = 60_000;

export class PushIngest {
  private readonly memory = new Map<string, DerivedAlarmMemory>();
  private readonly markedOnline = new Map<string, number>();

  constructor(
    private readonly batcher: IngestBatcher,
    private readonly state: DeviceStateWriter,
  ) {}

  /** Stores what one pushed message carries; resolves once it is committed. */
  async ingest(
    device: DeviceRef,
    msg: Pick<DecodedMessage, 'positions' | 'alarms' | 'attributes'>,
    source: string,
  ): Promise<PushResult> {
    const now = Date.now();
    // The sweeper marks a pushed device offline after silence; mark it online at most once a minute.
    const last = this.markedOnline.get(device.id);
    if (last === undefined || now - last > ONLINE_REFRESH_MS) {
      await this.state.setOnline(device, `push:${source}`, now);
      this.markedOnline.set(device.id, now);
    }
    let memory = this.memory.get(device.id);
    if (!memory) {
      memory = newDerivedAlarmMemory(device.speedLimit);
      this.memory.set(device.id, memory);
    }
    memory.speedLimit = device.speedLimit;
    const { positions, rejected, alarms, status } = prepareMessage(msg, memory, now);
    if (positions.length === 0 && alarms.length === 0) {
      this.state.noteRecord(device.id, null, status, now);
      return { stored: 0, rejected, alarms: 0 };
    }
    await new Promise<void>((resolve, reject) => {
      this.batcher.submit({
        device,
        positions,
        alarms,
        status,
        receivedAt: now,
        done: (err) => (err ? reject(err) : resolve()),
      });
    });
    return { stored: positions.length, rejected, alarms: alarms.length };
  }
}
