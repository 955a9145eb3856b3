// A small TopoJSON reader for the Natural Earth files of `world-atlas` (quantized arcs, Polygon and
// MultiPolygon geometries): rings as [lat, lng] lists, ready for Leaflet. Only what the offline base map
// needs; written here rather than adding a dependency for forty lines.

export interface Topology {
  type: 'Topology';
  transform?: { scale: [number, number]; translate: [number, number] };
  arcs: number[][][];
  objects: Record<string, TopoObject>;
}

type TopoObject =
  | { type: 'GeometryCollection'; geometries: TopoObject[]; properties?: Record<string, unknown> }
  | { type: 'Polygon'; arcs: number[][]; properties?: Record<string, unknown> }
  | { type: 'MultiPolygon'; arcs: number[][][]; properties?: Record<string, unknown> }
  | { type: null | 'Point' | 'LineString'; properties?: Record<string, unknown> };

/** A polygon as rings of [lat, lng] (outer ring first, then holes). */
export type LatLngPolygon = [number, number][][];

/** The arcs with quantization undone: absolute [lng, lat] positions. */
function decodeArcs(topo: Topology): [number, number][][] {
  const t = topo.transform;
  return topo.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]) => {
      if (!t) return [dx, dy] as [number, number];
      x += dx;
      y += dy;
      return [x * t.scale[0] + t.translate[0], y * t.scale[1] + t.translate[1]] as [number, number];
    });
  });
}

/** Every polygon of an object (a GeometryCollection is walked), each ring as [lat, lng] positions. */
export function polygonsOf(topo: Topology, name: string): LatLngPolygon[] {
  const arcs = decodeArcs(topo);
  const ring = (indexes: number[]): [number, number][] => {
    const out: [number, number][] = [];
    for (const i of indexes) {
      // A negative index ~i is arc i walked backwards.
      const arc = i >= 0 ? arcs[i] : [...arcs[~i]].reverse();
      // Consecutive arcs share their joining point: keep it once.
      for (let k = out.length > 0 ? 1 : 0; k < arc.length; k++) out.push([arc[k][1], arc[k][0]]);
    }
    return out;
  };
  const polygons: LatLngPolygon[] = [];
  const walk = (o: TopoObject) => {
    if (o.type === 'GeometryCollection') o.geometries.forEach(walk);
    else if (o.type === 'Polygon') polygons.push(o.arcs.map(ring));
    else if (o.type === 'MultiPolygon') for (const p of o.arcs) polygons.push(p.map(ring));
  };
  const root = topo.objects[name];
  if (root) walk(root);
  return polygons;
}
