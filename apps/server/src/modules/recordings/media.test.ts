// Lengths read from the files themselves: WAV by its byte rate and data chunk, MP3 by its first frame's bit rate.
import { toneWav } from '@carhere/simulator';
import { describe, expect, it } from 'vitest';
import { mediaDurationMs, mediaFormat } from './media.ts';

describe('recording media', () => {
  it('reads a WAV length from its header', () => {
    expect(mediaDurationMs(3, toneWav(2.5))).toBe(2500);
    expect(mediaDurationMs(3, Buffer.from('not a wav file at all'))).toBeNull();
  });

  it('reads a constant-bit-rate MP3 length from its first frame header (after an ID3 tag)', () => {
    // MPEG-1 layer III, 32 kbit/s (index 1), 44.1 kHz: 4000 bytes a second.
    const frame = Buffer.from([0xff, 0xfb, 0x10, 0x00]);
    const id3 = Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, 0, 0, 0, 6]), Buffer.alloc(6)]);
    const audio = Buffer.concat([frame, Buffer.alloc(12_000 - 4)]);
    expect(mediaDurationMs(2, Buffer.concat([id3, audio]))).toBe(3000);
    // MPEG-2 layer III, 8 kbit/s (index 1): 1000 bytes a second.
    expect(mediaDurationMs(2, Buffer.concat([Buffer.from([0xff, 0xf3, 0x10, 0x00]), Buffer.alloc(1996)]))).toBe(2000);
  });

  it('names the MIME type of each JT/T 808 format', () => {
    expect([0, 2, 3, 9].map((f) => mediaFormat(f).mime)).toEqual([
      'image/jpeg',
      'audio/mpeg',
      'audio/wav',
      'application/octet-stream',
    ]);
    expect(mediaDurationMs(0, Buffer.alloc(10))).toBeNull();
  });
});
