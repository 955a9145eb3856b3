// Many device markers in one leaflet.markercluster group, updated in batches. Moving a clustered marker one
// by one costs a remove and an add in every zoom level's grid plus a cluster refresh each time; here a whole
// batch is taken out, moved and put back with the group's bulk calls, and icons are rebuilt only when the
// state, the 10° heading step, the label or the selection changed.
import type { CarIconState } from '@carhere/domain';
import L from 'leaflet';
import 'leaflet.markercluster';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import 'leaflet.markercluster/dist/MarkerCluster.Default.css';
import { carIcon } from './carIcon.ts';
import { headingStep } from './carIconHtml.ts';

export interface DeviceMarkerDatum {
  id: string;
  /** WGS-84 */
  lat: number;
  lon: number;
  course: number;
  state: CarIconState;
  label: string;
}

export interface DeviceMarkerHandlers {
  onClick?: (id: string) => void;
  onContextMenu?: (id: string, event: L.LeafletMouseEvent) => void;
}

interface Entry {
  marker: L.Marker;
  iconKey: string;
}

/** Clusters are broken up at this zoom and beyond, so single cars show with their names. */
export const UNCLUSTER_ZOOM = 16;

export class DeviceMarkerLayer {
  readonly group: L.MarkerClusterGroup;
  private readonly entries = new Map<string, Entry>();
  private selectedId: string | null = null;

  constructor(
    private readonly map: L.Map,
    private readonly handlers: DeviceMarkerHandlers = {},
  ) {
    this.group = L.markerClusterGroup({
      chunkedLoading: true,
      maxClusterRadius: 60,
      disableClusteringAtZoom: UNCLUSTER_ZOOM,
      showCoverageOnHover: false,
      spiderfyOnMaxZoom: true,
      removeOutsideVisibleBounds: true,
      animate: false,
    });
    map.addLayer(this.group);
  }

  private iconKey(d: DeviceMarkerDatum): string {
    return `${d.state}|${headingStep(d.course)}|${d.label}|${d.id === this.selectedId ? 1 : 0}`;
  }

  private makeMarker(d: DeviceMarkerDatum): Entry {
    const iconKey = this.iconKey(d);
    const marker = L.marker([d.lat, d.lon], {
      icon: carIcon({ state: d.state, course: d.course, label: d.label, selected: d.id === this.selectedId }),
      keyboard: false,
      title: d.label,
    });
    marker.on('click', () => this.handlers.onClick?.(d.id));
    marker.on('contextmenu', (e: L.LeafletMouseEvent) => this.handlers.onContextMenu?.(d.id, e));
    return { marker, iconKey };
  }

  private restyle(entry: Entry, d: DeviceMarkerDatum): void {
    const key = this.iconKey(d);
    if (key === entry.iconKey) return;
    entry.iconKey = key;
    entry.marker.setIcon(
      carIcon({ state: d.state, course: d.course, label: d.label, selected: d.id === this.selectedId }),
    );
    entry.marker.options.title = d.label;
  }

  /** Makes the layer show exactly these devices (those without a valid position are left out by the caller). */
  setAll(devices: Iterable<DeviceMarkerDatum>): void {
    const seen = new Set<string>();
    const changed: DeviceMarkerDatum[] = [];
    const added: L.Marker[] = [];
    for (const d of devices) {
      seen.add(d.id);
      const entry = this.entries.get(d.id);
      if (!entry) {
        const created = this.makeMarker(d);
        this.entries.set(d.id, created);
        added.push(created.marker);
      } else changed.push(d);
    }
    const removed: L.Marker[] = [];
    for (const [id, entry] of this.entries) {
      if (!seen.has(id)) {
        removed.push(entry.marker);
        this.entries.delete(id);
      }
    }
    if (removed.length > 0) this.group.removeLayers(removed);
    if (added.length > 0) this.group.addLayers(added);
    if (changed.length > 0) this.update(changed);
  }

  /** Applies a batch of new positions and states (unknown ids are added). */
  update(devices: readonly DeviceMarkerDatum[]): void {
    const moved: { entry: Entry; latlng: L.LatLng }[] = [];
    const added: L.Marker[] = [];
    for (const d of devices) {
      const entry = this.entries.get(d.id);
      if (!entry) {
        const created = this.makeMarker(d);
        this.entries.set(d.id, created);
        added.push(created.marker);
        continue;
      }
      const old = entry.marker.getLatLng();
      if (old.lat !== d.lat || old.lng !== d.lon) moved.push({ entry, latlng: L.latLng(d.lat, d.lon) });
      this.restyle(entry, d);
    }
    if (moved.length > 0) {
      const markers = moved.map((m) => m.entry.marker);
      this.group.removeLayers(markers);
      for (const m of moved) m.entry.marker.setLatLng(m.latlng);
      this.group.addLayers(markers);
    }
    if (added.length > 0) this.group.addLayers(added);
  }

  remove(ids: readonly string[]): void {
    const markers: L.Marker[] = [];
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (entry) {
        markers.push(entry.marker);
        this.entries.delete(id);
      }
    }
    if (markers.length > 0) this.group.removeLayers(markers);
  }

  marker(id: string): L.Marker | undefined {
    return this.entries.get(id)?.marker;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Highlights one device (or none); the caller passes the data of the old and new selection to restyle. */
  select(id: string | null, data: readonly DeviceMarkerDatum[]): void {
    this.selectedId = id;
    for (const d of data) {
      const entry = this.entries.get(d.id);
      if (entry) this.restyle(entry, d);
    }
  }

  /** Zooms or spiderfies until the device's own marker is visible, then calls back. */
  reveal(id: string, then?: () => void): void {
    const marker = this.marker(id);
    if (!marker) return;
    this.group.zoomToShowLayer(marker, () => then?.());
  }

  destroy(): void {
    this.map.removeLayer(this.group);
    this.entries.clear();
  }
}
