// Test helpers: API Locations and live messages with sensible defaults.
import type { Location } from './api.ts';
import type { PositionMessage } from './live/messages.ts';

export function location(over: Partial<Location> & { deviceId: string }): Location {
  return {
    terminalID: `86000000000${over.deviceId.padStart(4, '0')}`,
    displayName: `Car ${over.deviceId}`,
    deviceProtocol: 0,
    online: true,
    lat: 39.9,
    lon: 116.4,
    speed: 0,
    course: 0,
    altitude: 0,
    valid: true,
    locationType: 'gps',
    acc: true,
    battery: 80,
    mileage: 0,
    stateTime: '2026-01-01T00:00:00.000Z',
    utcTime: '2026-01-01T00:00:00.000Z',
    lastSeen: '2026-01-01T00:00:00.000Z',
    mapState: 4,
    runState: 4,
    state: over.online === false ? 'lx' : 'zx',
    expire: null,
    activatedAt: '2025-01-01T00:00:00.000Z',
    carNumber: '',
    nickname: '',
    telephone: '',
    iconType: 1,
    userId: '2',
    username: 'demo',
    carIconState: over.online === false ? 'offline' : 'stop',
    ...over,
  };
}

export function position(over: Partial<PositionMessage> & { deviceId: string; time: string }): PositionMessage {
  return {
    type: 'position',
    terminalID: `86000000000${over.deviceId.padStart(4, '0')}`,
    lat: 39.91,
    lon: 116.41,
    speed: 40,
    course: 90,
    valid: true,
    locationType: 'gps',
    acc: true,
    battery: 70,
    ...over,
  };
}
