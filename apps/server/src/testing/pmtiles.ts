// A minimal PMTiles v3 writer and Mapbox Vector Tile encoder, for test fixtures only: a tiny archive whose
// tiles hold one layer, `earth`, with a polygon covering the tile, so protomaps-leaflet's basemap styles draw
// it as land. Written from the two published specs (PMTiles v3: 127-byte header, varint directory;
// MVT 2.1: protobuf Tile/Layer/Feature with command-encoded geometry). Uncompressed throughout.

const HEADER_BYTES = 127;
const COMPRESSION_NONE = 1;
const TILE_TYPE_MVT = 1;

function varint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
}

const zigzag = (n: number) => (n << 1) ^ (n >> 31);

/** protobuf field with wire type 2 (length-delimited) */
function bytesField(out: number[], field: number, bytes: ArrayLike<number>): void {
  varint(out, (field << 3) | 2);
  varint(out, bytes.length);
  for (let i = 0; i < bytes.length; i++) out.push(bytes[i]);
}

function varintField(out: number[], field: number, value: number): void {
  varint(out, field << 3);
  varint(out, value);
}

function packed(values: number[]): number[] {
  const out: number[] = [];
  for (const v of values) varint(out, v);
  return out;
}

/** An MVT tile with one polygon layer whose single feature covers the whole tile (and its buffer). */
export function earthTile(layer = 'earth', extent = 4096): Uint8Array {
  const b = 64;
  const side = extent + 2 * b;
  // Exterior ring clockwise in tile coordinates (y down): MoveTo, LineTo ×3, ClosePath.
  const geometry = [
    (1 << 3) | 1,
    zigzag(-b),
    zigzag(-b),
    (3 << 3) | 2,
    zigzag(side),
    zigzag(0),
    zigzag(0),
    zigzag(side),
    zigzag(-side),
    zigzag(0),
    (1 << 3) | 7,
  ];
  const feature: number[] = [];
  varintField(feature, 1, 1); // id
  varintField(feature, 3, 3); // type POLYGON
  bytesField(feature, 4, packed(geometry));
  const layerBytes: number[] = [];
  varintField(layerBytes, 15, 2); // version
  bytesField(layerBytes, 1, new TextEncoder().encode(layer));
  bytesField(layerBytes, 2, feature);
  varintField(layerBytes, 5, extent);
  const tile: number[] = [];
  bytesField(tile, 3, layerBytes);
  return Uint8Array.from(tile);
}

/**
 * A PMTiles v3 archive in which every tile of zooms 0..maxZoom is `tile` (one directory entry: tile ids
 * 0..n-1 are exactly the tiles of zooms 0..maxZoom, run-length encoded onto the same bytes).
 */
export function pmtilesArchive(tile: Uint8Array, maxZoom: number): Uint8Array {
  let count = 0;
  for (let z = 0; z <= maxZoom; z++) count += 4 ** z;
  // Root directory: entries count, tile id deltas, run lengths, lengths, offsets (+1).
  const dir: number[] = [];
  varint(dir, 1);
  varint(dir, 0);
  varint(dir, count);
  varint(dir, tile.length);
  varint(dir, 0 + 1);
  const metadata = new TextEncoder().encode(
    JSON.stringify({ name: 'carhere test fixture', vector_layers: [{ id: 'earth', fields: {} }] }),
  );
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + dir.length;
  const tileOffset = metadataOffset + metadata.length;
  const total = tileOffset + tile.length;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode('PMTiles'), 0);
  out[7] = 3;
  const u64 = (at: number, v: number) => view.setBigUint64(at, BigInt(v), true);
  u64(8, rootOffset);
  u64(16, dir.length);
  u64(24, metadataOffset);
  u64(32, metadata.length);
  u64(40, tileOffset); // no leaf directories
  u64(48, 0);
  u64(56, tileOffset);
  u64(64, tile.length);
  u64(72, count); // addressed tiles
  u64(80, 1); // tile entries
  u64(88, 1); // tile contents
  out[96] = 1; // clustered
  out[97] = COMPRESSION_NONE; // internal
  out[98] = COMPRESSION_NONE; // tiles
  out[99] = TILE_TYPE_MVT;
  out[100] = 0;
  out[101] = maxZoom;
  view.setInt32(102, -180 * 1e7, true);
  view.setInt32(106, -85 * 1e7, true);
  view.setInt32(110, 180 * 1e7, true);
  view.setInt32(114, 85 * 1e7, true);
  out[118] = 0;
  view.setInt32(119, 0, true);
  view.setInt32(123, 0, true);
  out.set(dir, rootOffset);
  out.set(metadata, metadataOffset);
  out.set(tile, tileOffset);
  return out;
}
