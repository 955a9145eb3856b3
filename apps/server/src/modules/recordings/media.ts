// What the server reads from an uploaded media file itself: its MIME type and, for audio, its length.
// WAV: the 'fmt ' chunk's byte rate and the 'data' chunk's size. MP3: the first frame header's bit rate over the
// bytes after it (constant bit rate; a VBR file's length is an estimate).

/** JT/T 808 multimedia formats (0x0800/0x0801): 0 JPEG, 1 TIF, 2 MP3, 3 WAV, 4 WMV. */
const FORMATS: Record<number, { mime: string; ext: string }> = {
  0: { mime: 'image/jpeg', ext: 'jpg' },
  1: { mime: 'image/tiff', ext: 'tif' },
  2: { mime: 'audio/mpeg', ext: 'mp3' },
  3: { mime: 'audio/wav', ext: 'wav' },
  4: { mime: 'video/x-ms-wmv', ext: 'wmv' },
};

export function mediaFormat(format: number): { mime: string; ext: string } {
  return FORMATS[format] ?? { mime: 'application/octet-stream', ext: 'bin' };
}

function wavDurationMs(b: Buffer): number | null {
  if (b.length < 12 || b.toString('ascii', 0, 4) !== 'RIFF' || b.toString('ascii', 8, 12) !== 'WAVE') return null;
  let p = 12;
  let byteRate = 0;
  while (p + 8 <= b.length) {
    const id = b.toString('ascii', p, p + 4);
    const size = b.readUInt32LE(p + 4);
    if (id === 'fmt ' && p + 20 <= b.length) byteRate = b.readUInt32LE(p + 16);
    if (id === 'data') {
      if (byteRate <= 0) return null;
      const bytes = Math.min(size, b.length - p - 8);
      return Math.round((bytes * 1000) / byteRate);
    }
    p += 8 + size + (size & 1);
  }
  return null;
}

// kbit/s by version (1 = MPEG-1, 2 = MPEG-2/2.5) for layer III, by the header's bitrate index.
const MP3_KBPS: Record<1 | 2, number[]> = {
  1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};

function mp3DurationMs(b: Buffer): number | null {
  let p = 0;
  // An ID3v2 tag first: 10-byte header, synchsafe size.
  if (b.length >= 10 && b.toString('latin1', 0, 3) === 'ID3') {
    p = 10 + ((b[6] & 0x7f) << 21) + ((b[7] & 0x7f) << 14) + ((b[8] & 0x7f) << 7) + (b[9] & 0x7f);
  }
  for (; p + 4 <= b.length; p++) {
    if (b[p] !== 0xff || (b[p + 1] & 0xe0) !== 0xe0) continue;
    const version = (b[p + 1] >> 3) & 3; // 3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5
    const layer = (b[p + 1] >> 1) & 3; // 1 = layer III
    const index = b[p + 2] >> 4;
    if (version === 1 || layer !== 1 || index === 0 || index === 15) continue;
    const kbps = MP3_KBPS[version === 3 ? 1 : 2][index] as number;
    return Math.round(((b.length - p) * 8) / kbps);
  }
  return null;
}

/** Length in milliseconds of an audio file in a JT/T 808 format (MP3, WAV), or null when it cannot tell. */
export function mediaDurationMs(format: number, data: Buffer): number | null {
  if (format === 3) return wavDurationMs(data);
  if (format === 2) return mp3DurationMs(data);
  return null;
}
