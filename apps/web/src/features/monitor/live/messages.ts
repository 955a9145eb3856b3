// Messages of the live WebSocket GET /api/ws (apps/server/src/gateway/README.md).

export interface PositionMessage {
  type: 'position';
  deviceId: string;
  terminalID: string;
  /** Fix time, ISO-8601 UTC */
  time: string;
  lat: number;
  lon: number;
  speed: number;
  course: number;
  altitude?: number;
  valid: boolean;
  locationType: string | null;
  acc: boolean | null;
  battery: number | null;
  receivedAt?: string;
}

export interface StateMessage {
  type: 'state';
  deviceId: string;
  terminalID: string;
  online: boolean;
  stateTime: string;
  lastSeen: string | null;
}

export interface AlarmMessage {
  type: 'alarm';
  id: string;
  deviceId: string;
  terminalID: string;
  alarmType: number;
  name: string;
  source: string;
  time: string;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  read: boolean;
}

export interface CommandMessage {
  type: 'command';
  commandId: string;
  deviceId: string;
  terminalID: string;
  content: string;
  mode: string;
  status: string;
  result: number | null;
  reply: string | null;
  time: string;
}

/** An in-app notification of a rule of this user (an event that is not an alarm: online, offline, ignition…). */
export interface NotificationMessage {
  type: 'notification';
  id: string;
  /** Event name of the rule ('online', 'ignition.on', 'test'…) */
  event: string;
  terminalID: string;
  deviceName: string;
  time: string;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  detail?: string;
}

export type LiveMessage =
  | PositionMessage
  | StateMessage
  | AlarmMessage
  | CommandMessage
  | NotificationMessage
  | { type: 'hello'; userId: string; serverTime: string }
  | { type: 'pong' };

const TYPES = new Set(['position', 'state', 'alarm', 'command', 'notification', 'hello', 'pong']);

/** Parses one frame; anything that is not a known message (bad JSON, unknown type, missing id) is null. */
export function parseLiveMessage(data: unknown): LiveMessage | null {
  if (typeof data !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const msg = value as { type?: unknown; deviceId?: unknown; lat?: unknown; lon?: unknown };
  if (typeof msg.type !== 'string' || !TYPES.has(msg.type)) return null;
  if ((msg.type === 'position' || msg.type === 'state' || msg.type === 'alarm') && typeof msg.deviceId !== 'string') {
    return null;
  }
  if (msg.type === 'notification' && typeof (value as { event?: unknown }).event !== 'string') return null;
  if (msg.type === 'position' && (typeof msg.lat !== 'number' || typeof msg.lon !== 'number')) return null;
  return value as LiveMessage;
}
