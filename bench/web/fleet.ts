// A synthetic fleet for the web benchmark: 10,000 devices around Beijing as the location API returns them,
// and a stream of live position messages.
export const FLEET_SIZE = 10_000;

/** A small deterministic PRNG so every run draws the same fleet. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PROVINCES = '京津沪渝冀豫云辽黑湘';

export interface FleetDevice {
  deviceId: string;
  terminalID: string;
  displayName: string;
  carNumber: string;
  lat: number;
  lon: number;
  speed: number;
  course: number;
  online: boolean;
}

export function makeFleet(size = FLEET_SIZE): FleetDevice[] {
  const rnd = prng(7);
  return Array.from({ length: size }, (_, i) => {
    const n = String(i + 1).padStart(5, '0');
    return {
      deviceId: String(i + 1),
      terminalID: `8681200${String(i).padStart(8, '0')}`,
      displayName: `Car ${n}`,
      carNumber: `${PROVINCES[i % PROVINCES.length]}A${n}`,
      lat: 39.4 + rnd(),
      lon: 115.9 + rnd(),
      speed: Math.round(rnd() * 90),
      course: Math.round(rnd() * 359),
      online: rnd() < 0.8,
    };
  });
}

/** The /api/location/findV2 Location of a fleet device. */
export function toLocation(d: FleetDevice, now: number) {
  const time = new Date(now - 5000).toISOString();
  return {
    deviceId: d.deviceId,
    terminalID: d.terminalID,
    displayName: d.displayName,
    carNumber: d.carNumber,
    deviceProtocol: 12,
    protocolType: 2,
    online: d.online,
    lat: d.lat,
    lon: d.lon,
    speed: d.speed,
    course: d.course,
    altitude: 0,
    valid: true,
    locationType: 'gps',
    acc: true,
    battery: 80,
    mileage: 0,
    stateTime: time,
    utcTime: time,
    lastSeen: time,
    mapState: d.online ? 1 : 5,
    runState: d.online ? 1 : 5,
    state: d.online ? 'zx' : 'lx',
    expire: null,
    activatedAt: time,
    nickname: '',
    telephone: '',
    iconType: 1,
    userId: '2',
    username: 'demo',
    carIconState: d.online ? 'moving' : 'offline',
  };
}

/** One live position message moving a device a little. */
export function moveMessage(d: FleetDevice, rnd: () => number, now: number): string {
  d.lat += (rnd() - 0.5) * 0.002;
  d.lon += (rnd() - 0.5) * 0.002;
  d.course = Math.round(rnd() * 359);
  const time = new Date(now).toISOString();
  return JSON.stringify({
    type: 'position',
    deviceId: d.deviceId,
    terminalID: d.terminalID,
    time,
    lat: d.lat,
    lon: d.lon,
    speed: 30 + Math.round(rnd() * 60),
    course: d.course,
    valid: true,
    locationType: 'gps',
    acc: true,
    battery: 80,
    receivedAt: time,
  });
}
