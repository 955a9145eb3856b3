// Which alarm code (the catalogue in ./alarms.ts) a tracker's alarm gets. The names are the protocol-neutral
// alarm names the GT06 and JT/T 808 decoders of @carhere/protocols emit (its `Alarm` / `AlarmName`); the
// domain keeps no dependency on that package, and protocolAlarms.test.ts checks that every name the decoders
// can emit is here and maps to a catalogue code.

/** Catch-all code (正常报警): the reference shows it for codes it does not know. */
export const GENERAL_ALARM = 0;
/** Codes the platform raises itself (derived from reports or from silence), besides the devices' own. */
export const POWER_CUT_ALARM = 2;
export const OVERSPEED_ALARM = 6;
export const LOW_BATTERY_ALARM = 18;
export const OFFLINE_ALARM = 20;

/**
 * Protocol alarm name → alarm code. Names without a code of their own in the catalogue (no public source
 * gives one) take GENERAL_ALARM; the alarm row keeps the protocol name beside the code. `null`: an event the
 * protocols flag the same way as alarms that is not one — power coming back after a cut, a door locked or
 * unlocked by its owner — and would only bury the real alarms in the list (our choice; the spec is silent).
 */
export const PROTOCOL_ALARM_CODES: Readonly<Record<string, number | null>> = Object.freeze({
  sos: 1,
  powerCut: POWER_CUT_ALARM,
  vibration: 3,
  geofenceEnter: 4,
  geofenceExit: 5,
  overspeed: OVERSPEED_ALARM,
  removing: 7,
  movement: 9,
  tow: 9, // displacement (位移)
  powerOn: 12,
  lowPower: 14, // low external power
  powerOff: 17,
  lowBattery: LOW_BATTERY_ALARM,
  tampering: 19,
  geofence: 23,
  fatigueDriving: 30,
  idle: 31,
  door: 32,
  temperature: 34, // the decoders raise it for high temperature
  parking: 37,
  hardBraking: 40,
  hardAcceleration: 41,
  accident: 44,
  hardCornering: 46,
  fallDown: 47,
  jamming: 48,
  general: GENERAL_ALARM,
  fault: GENERAL_ALARM,
  gpsAntennaCut: GENERAL_ALARM,
  powerRestored: null,
  lock: null,
  unlock: null,
  highRpm: GENERAL_ALARM,
  laneChange: GENERAL_ALARM,
});

/** The alarm code of a protocol alarm name; null for an event that is not an alarm; undefined for a name the table does not know. */
export function protocolAlarmCode(name: string): number | null | undefined {
  return Object.hasOwn(PROTOCOL_ALARM_CODES, name) ? PROTOCOL_ALARM_CODES[name] : undefined;
}
