// Only the part of a long track inside the view is handed to Leaflet at street zooms: runs of consecutive
// drawn fixes where a fix or its neighbour lies in the (padded) view, so segments crossing the edge stay.

export interface LatLonBounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** Runs of positions (into `indexes`) to draw; each run is a separate line. */
export function visibleRuns(
  indexes: Uint32Array,
  lats: ArrayLike<number>,
  lons: ArrayLike<number>,
  b: LatLonBounds,
): number[][] {
  const inside = (k: number) => {
    const i = indexes[k];
    return lats[i] >= b.south && lats[i] <= b.north && lons[i] >= b.west && lons[i] <= b.east;
  };
  const runs: number[][] = [];
  let run: number[] = [];
  let prevIn = false;
  for (let k = 0; k < indexes.length; k++) {
    const here = inside(k);
    const nextIn = k + 1 < indexes.length && inside(k + 1);
    if (here || prevIn || nextIn) run.push(k);
    else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
    prevIn = here;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
