// The battery-pack item of a JT/T 808 location report (vendor item 0xEF, Carhere layout; README "Battery packs").
import { describe, expect, it } from 'vitest';
import { makePosition } from '../position.ts';
import { ByteReader } from '../reader.ts';
import { decodeLocationItem } from './items.ts';

function item(bytes: number[]) {
  const position = makePosition(Date.UTC(2026, 10, 25), 22.5, 114, 0, 0, true, {});
  decodeLocationItem(0xef, bytes.length, new ByteReader(Uint8Array.from(bytes)), position, '');
  return position.attributes.batteryPack;
}

describe('JT/T 808 item 0xEF: battery pack', () => {
  it('decodes voltage, signed current, charge, signed temperature, cycles and fault bits', () => {
    // 52.34 V, -12.5 A (discharging), 76 %, -5 °C, 321 cycles, faults bits 0 and 14 (alarms 50 and 64)
    const pack = item([0x14, 0x72, 0xfb, 0x1e, 76, 0xfb, 0x01, 0x41, 0x00, 0x00, 0x40, 0x01]);
    expect(pack).toEqual({
      voltage: 52.34,
      current: -12.5,
      percentage: 76,
      temperature: -5,
      useCount: 321,
      faults: 0x4001,
    });
  });

  it('an item shorter than the layout gives no pack', () => {
    expect(item([0x14, 0x72, 0x00])).toBeUndefined();
  });
});
