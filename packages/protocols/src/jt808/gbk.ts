// GBK text encoding for JT/T 808 strings (texts, plate numbers). Node can decode GBK but has no
// encoder, so the table is built once, on first use, by decoding every two-byte GBK code.

let table: Map<number, number> | null = null;

function gbkTable(): Map<number, number> {
  if (table) return table;
  const map = new Map<number, number>();
  const decoder = new TextDecoder('gbk');
  const pair = new Uint8Array(2);
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      pair[0] = lead;
      pair[1] = trail;
      const text = decoder.decode(pair);
      if (text.length === 1) {
        const code = text.charCodeAt(0);
        if (code !== 0xfffd && !map.has(code)) map.set(code, (lead << 8) | trail);
      }
    }
  }
  table = map;
  return map;
}

/** Encodes text as GBK; characters GBK cannot represent become '?'. */
export function encodeGbk(text: string): Uint8Array {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  if (ascii) return Buffer.from(text, 'latin1');
  const map = gbkTable();
  const out: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0x3f;
    if (code <= 0x7f) {
      out.push(code);
      continue;
    }
    const gbk = code <= 0xffff ? map.get(code) : undefined;
    if (gbk === undefined) out.push(0x3f);
    else out.push(gbk >> 8, gbk & 0xff);
  }
  return Uint8Array.from(out);
}
