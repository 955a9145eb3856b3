// Bus subjects and payloads between the gateway, the API and the WebSocket hub. Payloads are plain JSON
// (ISO strings, no Dates) so the NATS bus can carry them unchanged.
import type { CommandMode, CommandStatus } from '../db/tables/gateway.ts';

export const Subjects = {
  position: 'device.position',
  state: 'device.state',
  alarm: 'device.alarm',
  command: 'device.command',
  /** Every device.* event, for the WebSocket hub. */
  allDevice: 'device.>',
  /** accounts → gateway: a device row changed (transfer, reset, delete); drop cached copies. */
  deviceChanged: 'devices.changed',
  /** gateway → accounts: a device connected for the first time (activated_at was just set). */
  deviceActivated: 'devices.activated',
  /** API → gateway: deliver this stored command to the device if its session is here. */
  commandSend: 'gateway.command.send',
  /** gateway → gateways: this device has a new session; any other session of it closes. */
  sessionBound: 'gateway.session.bound',
  /** API → gateways: the per-model gateway settings changed; reload them. */
  modelSettingsChanged: 'gateway.modelSettings.changed',
  /** maintenance → notifications: a maintenance item of a device fell due. */
  maintenanceDue: 'notify.maintenance',
} as const;

export interface PositionEvent {
  type: 'position';
  deviceId: string;
  terminalID: string;
  time: string;
  lat: number;
  lon: number;
  speed: number;
  course: number;
  altitude: number;
  valid: boolean;
  locationType: string | null;
  acc: boolean | null;
  battery: number | null;
  receivedAt: string;
}

export interface StateEvent {
  type: 'state';
  deviceId: string;
  terminalID: string;
  online: boolean;
  stateTime: string;
  lastSeen: string | null;
}

export interface AlarmEvent {
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

export interface CommandEvent {
  type: 'command';
  commandId: string;
  deviceId: string;
  terminalID: string;
  content: string;
  mode: CommandMode;
  status: CommandStatus;
  result: number | null;
  reply: string | null;
  time: string;
}

export type DeviceEvent = PositionEvent | StateEvent | AlarmEvent | CommandEvent;

/** What travels on device.* subjects: the browser-facing event and the owner's hierarchy path for filtering. */
export interface DeviceEnvelope<E extends DeviceEvent = DeviceEvent> {
  path: string;
  event: E;
}

export interface CommandSendRequest {
  commandId: string;
  deviceId: string;
  terminalId: string;
}

export interface DeviceChangedNotice {
  terminalID?: string;
  deviceId?: string;
}

export function isDeviceEnvelope(payload: unknown): payload is DeviceEnvelope {
  if (typeof payload !== 'object' || payload === null) return false;
  const p = payload as { path?: unknown; event?: { type?: unknown } };
  return (
    typeof p.path === 'string' && typeof p.event === 'object' && p.event !== null && typeof p.event.type === 'string'
  );
}

export interface MaintenanceDueEvent {
  type: 'maintenance';
  deviceId: string;
  terminalID: string;
  itemId: string;
  itemName: string;
  dueBy: 'km' | 'hours' | 'date';
  time: string;
}
