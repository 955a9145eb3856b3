// Realistic frames for the protocols benchmark and the fuzz script: GT06 0x12 location packets and
// JT/T 808 0x0200 location reports with the usual additional items, all with valid checksums.

import { buildGt06Frame, buildJt808Frame, jt808Target } from '@carhere/protocols';

/** Deterministic pseudo-random numbers (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** GT06 0x12 (GPS + LBS) frames around Shenzhen, as a GT06N sends them. */
export function gt06LocationFrames(count: number, seed = 1): Buffer[] {
  const rnd = random(seed);
  const frames: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const content = Buffer.alloc(26);
    const t = new Date(Date.UTC(2024, 0, 1) + Math.floor(rnd() * 300 * 86400) * 1000);
    content[0] = t.getUTCFullYear() - 2000;
    content[1] = t.getUTCMonth() + 1;
    content[2] = t.getUTCDate();
    content[3] = t.getUTCHours();
    content[4] = t.getUTCMinutes();
    content[5] = t.getUTCSeconds();
    content[6] = 0xc0 | Math.floor(rnd() * 12); // GPS info length 12, satellites
    content.writeUInt32BE(Math.round((22.5 + rnd() * 0.3) * 1800000), 7);
    content.writeUInt32BE(Math.round((113.9 + rnd() * 0.3) * 1800000), 11);
    content[15] = Math.floor(rnd() * 120); // km/h
    content.writeUInt16BE(0x1400 | Math.floor(rnd() * 360), 16); // positioned, north, east, course
    content.writeUInt16BE(460, 18); // MCC
    content[20] = 0; // MNC
    content.writeUInt16BE(0x287d, 21); // LAC
    content.writeUIntBE(0x1f71 + i, 23, 3); // cell id
    frames.push(buildGt06Frame(0x12, i & 0xffff, content));
  }
  return frames;
}

/** JT/T 808 0x0200 reports (2013 header) with mileage, fuel, speed, signal and satellites items. */
export function jt808LocationFrames(count: number, seed = 2): Buffer[] {
  const rnd = random(seed);
  const target = jt808Target('013912345678', '2013');
  const frames: Buffer[] = [];
  const bcd = (v: number) => ((Math.floor(v / 10) % 10) << 4) | (v % 10);
  for (let i = 0; i < count; i++) {
    const body = Buffer.alloc(28 + 6 + 4 + 4 + 3 + 3);
    body.writeUInt32BE(rnd() < 0.05 ? 0x01 : 0, 0); // alarm flags (some SOS)
    body.writeUInt32BE(0x000c0003, 4); // ACC on, positioned, GPS + BeiDou
    body.writeUInt32BE(Math.round((22.5 + rnd() * 0.3) * 1e6), 8);
    body.writeUInt32BE(Math.round((113.9 + rnd() * 0.3) * 1e6), 12);
    body.writeInt16BE(Math.floor(rnd() * 200), 16);
    body.writeUInt16BE(Math.floor(rnd() * 1200), 18); // 1/10 km/h
    body.writeUInt16BE(Math.floor(rnd() * 360), 20);
    const t = new Date(Date.UTC(2024, 0, 1) + Math.floor(rnd() * 300 * 86400) * 1000);
    body[22] = bcd(t.getUTCFullYear() - 2000);
    body[23] = bcd(t.getUTCMonth() + 1);
    body[24] = bcd(t.getUTCDate());
    body[25] = bcd(t.getUTCHours());
    body[26] = bcd(t.getUTCMinutes());
    body[27] = bcd(t.getUTCSeconds());
    let p = 28;
    body[p++] = 0x01; // mileage, 1/10 km
    body[p++] = 4;
    body.writeUInt32BE(Math.floor(rnd() * 1e6), p);
    p += 4;
    body[p++] = 0x02; // fuel, 1/10 L
    body[p++] = 2;
    body.writeUInt16BE(Math.floor(rnd() * 800), p);
    p += 2;
    body[p++] = 0x03; // tachograph speed
    body[p++] = 2;
    body.writeUInt16BE(Math.floor(rnd() * 1200), p);
    p += 2;
    body[p++] = 0x30; // signal
    body[p++] = 1;
    body[p++] = Math.floor(rnd() * 31);
    body[p++] = 0x31; // satellites
    body[p++] = 1;
    body[p++] = Math.floor(rnd() * 20);
    frames.push(buildJt808Frame(0x0200, target, i & 0xffff, body));
  }
  return frames;
}
