// The decoders' alarm names come from @carhere/protocols itself: its `Alarm` table (the decoders can only
// emit an `AlarmName`, which the protocols package's types enforce), and the alarms its decoders actually
// return for Traccar's GT06 and JT/T 808 vectors.
import { readFileSync } from 'node:fs';
import {
  Alarm,
  createGt06Context,
  createJt808Context,
  type DecodeResult,
  decodeGt06,
  decodeJt808,
} from '@carhere/protocols';
import { describe, expect, it } from 'vitest';
import { alarmType } from './alarms.ts';
import {
  GENERAL_ALARM,
  LOW_BATTERY_ALARM,
  OFFLINE_ALARM,
  OVERSPEED_ALARM,
  POWER_CUT_ALARM,
  PROTOCOL_ALARM_CODES,
  protocolAlarmCode,
} from './protocolAlarms.ts';

interface VectorCase {
  test: string;
  hex: string;
  model?: string;
}

/** Every alarm name the decoders return for the Traccar vectors of one protocol. */
function alarmsFromVectors(file: string, decode: (frame: Buffer, model: string | null, test: string) => DecodeResult) {
  const url = new URL(`../../../protocols/fixtures/traccar/${file}`, import.meta.url);
  const cases = (JSON.parse(readFileSync(url, 'utf8')) as { cases: VectorCase[] }).cases;
  const names = new Set<string>();
  for (const c of cases) {
    const result = decode(Buffer.from(c.hex, 'hex'), c.model ?? null, c.test);
    if (!result.ok) continue;
    for (const name of result.message.alarms) names.add(name);
    for (const position of result.message.positions) for (const name of position.alarms) names.add(name);
  }
  return names;
}

function gt06Decoder() {
  let test = '';
  let ctx = createGt06Context();
  return (frame: Buffer, model: string | null, method: string) => {
    if (method !== test) {
      test = method;
      ctx = createGt06Context();
    }
    ctx.model = model;
    return decodeGt06(frame, ctx);
  };
}

function jt808Decoder() {
  let test = '';
  let ctx = createJt808Context();
  return (frame: Buffer, model: string | null, method: string) => {
    if (method !== test) {
      test = method;
      ctx = createJt808Context();
    }
    ctx.model = model;
    return decodeJt808(frame, ctx);
  };
}

const decoderNames: string[] = Object.values(Alarm);
/** Events flagged like alarms that are not alarms (no row). */
const NOT_ALARMS = ['powerRestored', 'lock', 'unlock'];
const alarmNames = decoderNames.filter((n) => !NOT_ALARMS.includes(n));

describe('protocol alarm names → alarm codes', () => {
  it.each(alarmNames)('%s maps to a device alarm code of the catalogue', (name) => {
    const code = protocolAlarmCode(name);
    expect(code).toBeTypeOf('number');
    expect(alarmType(code)?.kind).toBe('device');
  });

  it.each(NOT_ALARMS)('%s is a known event that is not an alarm', (name) => {
    expect(decoderNames).toContain(name);
    expect(protocolAlarmCode(name)).toBeNull();
  });

  it('has no entry for a name the decoders do not have', () => {
    expect(Object.keys(PROTOCOL_ALARM_CODES).sort()).toEqual([...decoderNames].sort());
  });

  it('every alarm the decoders return for the Traccar vectors has a code', () => {
    const gt06 = alarmsFromVectors('gt06-decoder.json', gt06Decoder());
    const jt808 = alarmsFromVectors('huabao-decoder.json', jt808Decoder());
    // The vectors do raise alarms on both protocols, so this checks something.
    expect(gt06.size).toBeGreaterThan(3);
    expect(jt808.size).toBeGreaterThan(3);
    for (const name of [...gt06, ...jt808]) {
      expect(decoderNames, name).toContain(name);
      const code = protocolAlarmCode(name);
      expect(code, name).not.toBeUndefined();
      if (code !== null) expect(alarmType(code), name).toBeDefined();
    }
  });

  it('gives the reference codes where the reference names the alarm', () => {
    expect(
      ['sos', 'powerCut', 'vibration', 'geofenceEnter', 'geofenceExit', 'overspeed', 'lowBattery', 'jamming'].map(
        protocolAlarmCode,
      ),
    ).toEqual([1, 2, 3, 4, 5, 6, 18, 48]);
    expect(alarmType(protocolAlarmCode('overspeed'))?.en).toBe('Overspeed');
    expect(alarmType(protocolAlarmCode('hardBraking'))?.en).toBe('Harsh braking');
    expect(alarmType(protocolAlarmCode('removing'))?.cn).toBe('拆除报警');
  });

  it('names without a code of their own take the catch-all code 0', () => {
    for (const name of ['general', 'fault', 'gpsAntennaCut', 'highRpm', 'laneChange']) {
      expect(protocolAlarmCode(name)).toBe(GENERAL_ALARM);
    }
    expect(alarmType(GENERAL_ALARM)?.cn).toBe('正常报警');
  });

  it('does not know other names, including object prototype keys', () => {
    expect(protocolAlarmCode('somethingNew')).toBeUndefined();
    expect(protocolAlarmCode('toString')).toBeUndefined();
    expect(protocolAlarmCode('__proto__')).toBeUndefined();
    expect(protocolAlarmCode('')).toBeUndefined();
  });

  it('the derived-alarm codes are catalogue codes with the meaning their names say', () => {
    expect(alarmType(POWER_CUT_ALARM)?.en).toBe('Power cut');
    expect(alarmType(OVERSPEED_ALARM)?.en).toBe('Overspeed');
    expect(alarmType(LOW_BATTERY_ALARM)?.en).toBe('Low battery');
    expect(alarmType(OFFLINE_ALARM)?.en).toBe('Offline');
  });
});
