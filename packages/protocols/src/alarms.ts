// Alarm names the decoders emit. They are protocol-neutral; mapping them to the platform's alarm codes
// belongs to the domain package.

export const Alarm = {
  sos: 'sos',
  general: 'general',
  vibration: 'vibration',
  movement: 'movement',
  overspeed: 'overspeed',
  fallDown: 'fallDown',
  lowPower: 'lowPower',
  lowBattery: 'lowBattery',
  fault: 'fault',
  powerOff: 'powerOff',
  powerOn: 'powerOn',
  powerCut: 'powerCut',
  powerRestored: 'powerRestored',
  door: 'door',
  lock: 'lock',
  unlock: 'unlock',
  geofence: 'geofence',
  geofenceEnter: 'geofenceEnter',
  geofenceExit: 'geofenceExit',
  gpsAntennaCut: 'gpsAntennaCut',
  accident: 'accident',
  tow: 'tow',
  idle: 'idle',
  highRpm: 'highRpm',
  hardAcceleration: 'hardAcceleration',
  hardBraking: 'hardBraking',
  hardCornering: 'hardCornering',
  laneChange: 'laneChange',
  fatigueDriving: 'fatigueDriving',
  parking: 'parking',
  removing: 'removing',
  tampering: 'tampering',
  jamming: 'jamming',
  temperature: 'temperature',
} as const;

export type AlarmName = (typeof Alarm)[keyof typeof Alarm];

/** Adds an alarm once. */
export function addAlarm(list: AlarmName[], alarm: AlarmName | null | undefined): void {
  if (alarm && !list.includes(alarm)) list.push(alarm);
}
