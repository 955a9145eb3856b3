// Test helpers: Traccar's vectors (fixtures/traccar) and the mapping from Traccar's expectations to
// this package's output. Used by conformance.test.ts only.

import { readFileSync } from 'node:fs';
import type { AttributeValue, DecodedMessage, Position } from '../types.ts';

export interface TraccarCase {
  test: string;
  line: number;
  hex: string;
  expect: 'null' | 'notnull' | 'attributes' | 'attribute' | 'position' | 'positions' | 'frame';
  model?: string;
  checksumOk?: boolean;
  frame?: string;
  command?: { type: string; attributes: Record<string, string> };
  asserts?: {
    key?: string;
    value?: AttributeValue;
    position?: { fixTime: string; valid: boolean; latitude: number; longitude: number; tolerance: number };
  };
}

export function loadTraccarCases(file: string): TraccarCase[] {
  const url = new URL(`../../fixtures/traccar/${file}`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { cases: TraccarCase[] }).cases;
}

const KNOTS_PER_KMH = 1 / 1.852;

/** Where a report's data is: the first position, or the message itself when there is no fix. */
function attributesOf(m: DecodedMessage): Record<string, AttributeValue> {
  return m.positions[0]?.attributes ?? m.attributes;
}

function alarmsOf(m: DecodedMessage): string[] {
  return m.positions[0]?.alarms ?? m.alarms;
}

function tyre(m: DecodedMessage, index: number, field: string): AttributeValue | undefined {
  const tyres = attributesOf(m).tyres;
  if (!Array.isArray(tyres)) return undefined;
  for (const t of tyres) {
    if (t && typeof t === 'object' && !Array.isArray(t) && t.index === index) return t[field];
  }
  return undefined;
}

/**
 * Traccar key → how to read the same value from our message, converted to Traccar's unit.
 * Keys not listed have the same name and unit in our attributes.
 */
export const KEY_MAP: Record<string, (m: DecodedMessage) => AttributeValue | undefined> = {
  ignition: (m) => attributesOf(m).acc,
  odometer: (m) => attributesOf(m).mileage, // metres in both
  rssi: (m) => attributesOf(m).signal,
  sat: (m) => m.positions[0]?.satellites ?? attributesOf(m).satellites,
  alarm: (m) => (alarmsOf(m).length > 0 ? alarmsOf(m).join(',') : undefined),
  // Command replies are in commandReply; GT06 0x9B serial pass-through data is attributes.serialData.
  result: (m) => m.commandReply?.text ?? attributesOf(m).serialData,
  hours: (m) => {
    const hours = attributesOf(m).engineHours;
    return typeof hours === 'number' ? Math.round(hours * 3_600_000) : undefined; // Traccar: milliseconds
  },
  speed: (m) => (m.positions[0] ? m.positions[0].speedKmh * KNOTS_PER_KMH : undefined),
  course: (m) => m.positions[0]?.course,
  altitude: (m) => m.positions[0]?.altitude,
};

/** Our value for a Traccar attribute key (tyres: tire<N><Field> → tyres[index N].field). */
export function valueFor(m: DecodedMessage, key: string): AttributeValue | undefined {
  const mapped = KEY_MAP[key];
  if (mapped) return mapped(m);
  const tyreKey = /^tire(\d+)(Pressure|Temp|SensorId|Status)$/.exec(key);
  if (tyreKey) {
    const field = { Pressure: 'pressure', Temp: 'temperature', SensorId: 'sensorId', Status: 'status' }[tyreKey[2]];
    return tyre(m, Number(tyreKey[1]), field ?? '');
  }
  return attributesOf(m)[key];
}

export function sameValue(actual: AttributeValue | undefined, expected: AttributeValue | undefined): boolean {
  if (expected === null || expected === undefined) return actual === null || actual === undefined;
  if (typeof expected === 'number' && typeof actual === 'number') {
    return Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
  }
  return actual === expected;
}

/** Traccar's verifyPosition: a plausible fix (speed in knots, course, altitude, time window). */
export function isSanePosition(p: Position, now = Date.now()): boolean {
  const t = p.time.getTime();
  const knots = p.speedKmh * KNOTS_PER_KMH;
  return (
    t > Date.UTC(1999, 0, 1) &&
    t < now + 25 * 3600_000 &&
    Math.abs(p.lat) <= 90 &&
    Math.abs(p.lon) <= 180 &&
    knots >= 0 &&
    knots <= 869 &&
    p.course >= 0 &&
    p.course <= 360 &&
    p.altitude >= -12262 &&
    p.altitude <= 18000
  );
}

export function hasContent(m: DecodedMessage): boolean {
  const p = m.positions[0];
  return (
    m.positions.length > 0 ||
    Object.keys(m.attributes).length > 0 ||
    m.alarms.length > 0 ||
    m.commandReply !== null ||
    (p !== undefined && Object.keys(p.attributes).length > 0)
  );
}

export function hasAttributes(m: DecodedMessage): boolean {
  const p = m.positions[0];
  return (
    (p !== undefined && Object.keys(p.attributes).length > 0) ||
    Object.keys(m.attributes).length > 0 ||
    m.commandReply !== null
  );
}
