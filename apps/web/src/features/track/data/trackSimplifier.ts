// Per-zoom drawing indexes of one track, cached: the full track is simplified once at street level and
// coarser zooms simplify that result, so zooming a 777,600-fix track never re-reads every fix.
import { degreesPerPixel, simplifyIndexes } from './decimate.ts';
import type { TrackData } from './trackData.ts';

/** Deviation allowed when drawing, in screen pixels. */
export const DRAW_TOLERANCE_PX = 1;
/** Zoom of the finest simplification; closer zooms reuse it. */
const BASE_ZOOM = 17;

export class TrackSimplifier {
  private readonly levels = new Map<number, Uint32Array>();
  private base: Uint32Array | null = null;

  constructor(private readonly track: TrackData) {}

  private baseIndexes(): Uint32Array {
    if (!this.base) {
      const t = this.track;
      this.base = simplifyIndexes(t.lats, t.lons, t.length, degreesPerPixel(BASE_ZOOM) * DRAW_TOLERANCE_PX);
    }
    return this.base;
  }

  /** Sorted fix indexes to draw at a zoom level. */
  indexesAt(zoom: number): Uint32Array {
    const z = Math.min(BASE_ZOOM, Math.max(0, Math.round(zoom)));
    if (z === BASE_ZOOM) return this.baseIndexes();
    let level = this.levels.get(z);
    if (!level) {
      const base = this.baseIndexes();
      const lats = new Float64Array(base.length);
      const lons = new Float64Array(base.length);
      for (let k = 0; k < base.length; k++) {
        lats[k] = this.track.lats[base[k]];
        lons[k] = this.track.lons[base[k]];
      }
      const picked = simplifyIndexes(lats, lons, base.length, degreesPerPixel(z) * DRAW_TOLERANCE_PX);
      level = picked.map((k) => base[k]);
      this.levels.set(z, level);
    }
    return level;
  }
}
