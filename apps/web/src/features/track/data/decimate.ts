// Decimation for drawing: a track of hundreds of thousands of fixes is drawn from the few thousand that
// change its shape at the current zoom (radial-distance pass, then Douglas–Peucker), so panning, zooming
// and playing stay smooth. The full columns stay untouched for playback, the chart and exports.

/** Degrees per screen pixel at a zoom level of 256-px Web Mercator tiles (longitude). */
export function degreesPerPixel(zoom: number): number {
  return 360 / (256 * 2 ** zoom);
}

/**
 * Indexes of the fixes to draw: the first and last always, and every fix that deviates from the simplified
 * line by more than `tolerance` degrees (longitude scaled by cos(latitude)).
 */
export function simplifyIndexes(
  lats: ArrayLike<number>,
  lons: ArrayLike<number>,
  length: number,
  tolerance: number,
): Uint32Array {
  if (length <= 2) return Uint32Array.from({ length }, (_, i) => i);
  const scale = Math.cos(((lats[0] ?? 0) * Math.PI) / 180);
  const tol2 = tolerance * tolerance;

  // Radial pass: drop fixes closer than the tolerance to the last kept one (parked cars, dense sampling).
  const radial: number[] = [0];
  let last = 0;
  for (let i = 1; i < length - 1; i++) {
    const dx = (lons[i] - lons[last]) * scale;
    const dy = lats[i] - lats[last];
    if (dx * dx + dy * dy > tol2) {
      radial.push(i);
      last = i;
    }
  }
  radial.push(length - 1);

  // Douglas–Peucker over the radial survivors, iteratively (no recursion depth limit).
  const keep = new Uint8Array(radial.length);
  keep[0] = 1;
  keep[radial.length - 1] = 1;
  const stack: number[] = [0, radial.length - 1];
  while (stack.length > 0) {
    const b = stack.pop() as number;
    const a = stack.pop() as number;
    const ia = radial[a];
    const ib = radial[b];
    const ax = lons[ia] * scale;
    const ay = lats[ia];
    const dx = lons[ib] * scale - ax;
    const dy = lats[ib] - ay;
    const len2 = dx * dx + dy * dy;
    let worst = -1;
    let worstD = tol2;
    for (let k = a + 1; k < b; k++) {
      const i = radial[k];
      const px = lons[i] * scale - ax;
      const py = lats[i] - ay;
      let d: number;
      if (len2 === 0) d = px * px + py * py;
      else {
        const t = Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
        const ex = px - t * dx;
        const ey = py - t * dy;
        d = ex * ex + ey * ey;
      }
      if (d > worstD) {
        worstD = d;
        worst = k;
      }
    }
    if (worst >= 0) {
      keep[worst] = 1;
      stack.push(a, worst, worst, b);
    }
  }
  let count = 0;
  for (let k = 0; k < keep.length; k++) count += keep[k];
  const out = new Uint32Array(count);
  let j = 0;
  for (let k = 0; k < keep.length; k++) if (keep[k]) out[j++] = radial[k];
  return out;
}

/** Position of the last kept index ≤ i in a sorted index list (for drawing the part already played). */
export function keptBefore(indexes: Uint32Array, i: number): number {
  let lo = 0;
  let hi = indexes.length - 1;
  if (hi < 0 || i < indexes[0]) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (indexes[mid] <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
