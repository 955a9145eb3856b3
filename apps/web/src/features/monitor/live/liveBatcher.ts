// Coalesces live messages between two flushes: for each device only its newest position and newest state
// are kept, so 5,000 updates per second cost the page one batch per flush, not 5,000 renders.
import type { AlarmMessage, CommandMessage, LiveMessage, PositionMessage, StateMessage } from './messages.ts';

export interface LiveBatch {
  positions: PositionMessage[];
  states: StateMessage[];
  alarms: AlarmMessage[];
  commands: CommandMessage[];
  /** Messages received in this window, before coalescing. */
  received: number;
  /** Alarms beyond MAX_ALARMS_PER_BATCH in this window. */
  droppedAlarms: number;
}

/** Alarms kept per flush; a storm beyond this is summarised by its count. */
export const MAX_ALARMS_PER_BATCH = 50;

export class LiveBatcher {
  private positions = new Map<string, PositionMessage>();
  private states = new Map<string, StateMessage>();
  private alarms: AlarmMessage[] = [];
  private alarmsDropped = 0;
  private commands: CommandMessage[] = [];
  private received = 0;

  add(msg: LiveMessage): void {
    this.received++;
    switch (msg.type) {
      case 'position': {
        const prev = this.positions.get(msg.deviceId);
        if (!prev || prev.time <= msg.time) this.positions.set(msg.deviceId, msg);
        break;
      }
      case 'state': {
        const prev = this.states.get(msg.deviceId);
        if (!prev || prev.stateTime <= msg.stateTime) this.states.set(msg.deviceId, msg);
        break;
      }
      case 'alarm':
        if (this.alarms.length < MAX_ALARMS_PER_BATCH) this.alarms.push(msg);
        else this.alarmsDropped++;
        break;
      case 'command':
        this.commands.push(msg);
        break;
      default:
        break;
    }
  }

  get pending(): boolean {
    return this.received > 0;
  }

  /** Hands over everything gathered since the last call and starts a new window. */
  take(): LiveBatch {
    const batch: LiveBatch = {
      positions: [...this.positions.values()],
      states: [...this.states.values()],
      alarms: this.alarms,
      commands: this.commands,
      received: this.received,
      droppedAlarms: this.alarmsDropped,
    };
    this.positions = new Map();
    this.states = new Map();
    this.alarms = [];
    this.alarmsDropped = 0;
    this.commands = [];
    this.received = 0;
    return batch;
  }
}
