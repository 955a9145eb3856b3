// Baseline for the map frame-rate benchmark: the peer approach, leaflet.markercluster fed straight from the
// WebSocket — every position message moves its marker at once (markercluster re-clusters it on each move),
// with the same car icons, fleet and message stream as the Carhere page.
import 'leaflet/dist/leaflet.css';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import 'leaflet.markercluster/dist/MarkerCluster.Default.css';
import L from 'leaflet';
import 'leaflet.markercluster';
import type { CarIconState } from '@carhere/domain';
import { carIconHtml } from '../../../apps/web/src/map/layers/carIconHtml.ts';

interface Loc {
  deviceId: string;
  displayName: string;
  lat: number;
  lon: number;
  course: number;
  online: boolean;
}

const icon = (state: CarIconState, course: number, label: string) =>
  L.divIcon({ className: '', html: carIconHtml({ state, course, label }), iconSize: [40, 40], iconAnchor: [20, 20] });

async function start(): Promise<void> {
  const res = await fetch('/api/location/findV2', { method: 'POST', body: '{}' });
  const list = (await res.json()).data.list as Loc[];
  const map = L.map('map', { center: [39.915, 116.404], zoom: 12, minZoom: 3, maxZoom: 19 });
  // Unreachable tiles, as on the Carhere page in the benchmark (no network).
  L.tileLayer('https://tiles.invalid/{z}/{x}/{y}.png').addTo(map);
  const group = (
    L as unknown as { markerClusterGroup(o: object): L.FeatureGroup & { addLayers(l: L.Layer[]): void } }
  ).markerClusterGroup({
    chunkedLoading: true,
    maxClusterRadius: 60,
    disableClusteringAtZoom: 16,
    showCoverageOnHover: false,
    animate: false,
  });
  const markers = new Map<string, L.Marker>();
  for (const d of list) {
    markers.set(
      d.deviceId,
      L.marker([d.lat, d.lon], {
        icon: icon(d.online ? 'moving' : 'offline', d.course, d.displayName),
        title: d.displayName,
      }),
    );
  }
  group.addLayers([...markers.values()]);
  map.addLayer(group);
  const ws = new WebSocket(`ws://${location.host}/api/ws`);
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type !== 'position') return;
    const m = markers.get(msg.deviceId);
    if (!m) return;
    m.setLatLng([msg.lat, msg.lon]);
    m.setIcon(icon('moving', msg.course, m.options.title ?? ''));
  };
  (window as unknown as { __baselineReady: boolean }).__baselineReady = true;
}

void start();
