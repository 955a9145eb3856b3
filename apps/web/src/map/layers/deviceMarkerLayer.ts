// Many device markers in one leaflet.markercluster group, updated in batches. Moving a clustered marker one
// by one costs a remove and an add in every zoom level's grid plus a cluster refresh each time; here a whole
// batch is taken out, moved and put back with the group's bulk calls, and icons are rebuilt only when the
// state, the 10° heading step, the label or the selection changed. Moves that happen entirely off screen
// (old and new position outside the view) are kept aside and applied in small slices in the background or
// as soon as the view reaches them, so the visible part of a 10,000-device fleet stays fluid.
import type { CarIconState } from '@carhere/domain';
import L from 'leaflet';
import 'leaflet.markercluster';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import 'leaflet.markercluster/dist/MarkerCluster.Default.css';
import { divIcon } from '../html/leafletGuard.ts';
import { html } from '../html/leafletHtml.ts';
import { carIcon } from './carIcon.ts';
import { headingStep } from './carIconHtml.ts';

// Each marker and cluster icon lays itself out on its own: moving one does not re-lay out the others.
const containment = document.createElement('style');
containment.textContent = '.carhere-car-icon,.marker-cluster{contain:layout style}';
document.head.appendChild(containment);

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
/**
 * Off-screen moves applied along with each batch (one bulk cluster update instead of two), and by a timer
 * when no batch came for OFFSCREEN_SLICE_MS.
 */
export const OFFSCREEN_SLICE = 150;
export const OFFSCREEN_SLICE_MS = 1000;
/**
 * The view is widened by this fraction on each side when deciding what is off screen: the same as the
 * bounds markercluster keeps its markers on the map within (removeOutsideVisibleBounds pads by 1), so every
 * marker in the page is at its last position, and a drag reveals no stale car before its moveend.
 */
const VIEW_PADDING = 1;
/** More pending moves than this share of the fleet coming into view: rebuild the clusters in one go. */
const REBUILD_SHARE = 0.3;

/** markercluster's own cluster icon (same classes and markup), made through the escaper. */
function clusterIcon(cluster: L.MarkerCluster): L.DivIcon {
  const count = cluster.getChildCount();
  const size = count < 10 ? 'small' : count < 100 ? 'medium' : 'large';
  return divIcon({
    html: html`<div><span>${count}</span></div>`,
    className: `marker-cluster marker-cluster-${size}`,
    iconSize: L.point(40, 40),
  });
}

export class DeviceMarkerLayer {
  readonly group: L.MarkerClusterGroup;
  private readonly entries = new Map<string, Entry>();
  /** Latest off-screen moves not yet applied to the clusters. */
  private readonly offscreen = new Map<string, DeviceMarkerDatum>();
  private selectedId: string | null = null;
  private lastApply = 0;
  private readonly sliceTimer: ReturnType<typeof setInterval>;
  private readonly onViewChange = () => this.applyInView();

  constructor(
    private readonly map: L.Map,
    private readonly handlers: DeviceMarkerHandlers = {},
  ) {
    this.group = L.markerClusterGroup({
      chunkedLoading: true,
      // A batch is added in slices of at most this many ms, so one flush never blocks a frame for long.
      chunkInterval: 50,
      maxClusterRadius: 60,
      disableClusteringAtZoom: UNCLUSTER_ZOOM,
      showCoverageOnHover: false,
      spiderfyOnMaxZoom: true,
      removeOutsideVisibleBounds: true,
      animate: false,
      iconCreateFunction: clusterIcon,
    });
    map.addLayer(this.group);
    map.on('moveend', this.onViewChange);
    this.sliceTimer = setInterval(() => this.applyOffscreenSlice(), OFFSCREEN_SLICE_MS);
  }

  /** Moves not yet applied because they happened off screen. */
  get pendingOffscreen(): number {
    return this.offscreen.size;
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
    const view = this.map.getBounds().pad(VIEW_PADDING);
    const visible: DeviceMarkerDatum[] = [];
    for (const d of devices) {
      const entry = this.entries.get(d.id);
      if (!entry) {
        visible.push(d);
        continue;
      }
      const old = entry.marker.getLatLng();
      if (old.lat === d.lat && old.lng === d.lon) {
        // Not moved (a periodic restyle): any pending move is stale; only the look may change.
        this.offscreen.delete(d.id);
        this.restyle(entry, d);
      } else if (d.id !== this.selectedId && !view.contains(old) && !view.contains([d.lat, d.lon])) {
        this.offscreen.set(d.id, d);
      } else {
        this.offscreen.delete(d.id);
        visible.push(d);
      }
    }
    this.apply([...visible, ...this.takeOffscreen(OFFSCREEN_SLICE)]);
  }

  private takeOffscreen(count: number): DeviceMarkerDatum[] {
    const slice: DeviceMarkerDatum[] = [];
    for (const [id, d] of this.offscreen) {
      if (slice.length >= count) break;
      slice.push(d);
      this.offscreen.delete(id);
    }
    return slice;
  }

  private apply(devices: readonly DeviceMarkerDatum[]): void {
    this.lastApply = performance.now();
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
      this.silently(() => {
        for (const m of moved) m.entry.marker.setLatLng(m.latlng);
      });
      this.group.addLayers(markers);
    }
    if (added.length > 0) this.group.addLayers(added);
  }

  /** A background slice of the off-screen moves (their clusters' counts catch up). */
  private applyOffscreenSlice(): void {
    if (this.offscreen.size === 0 || performance.now() - this.lastApply < OFFSCREEN_SLICE_MS) return;
    this.apply(this.takeOffscreen(OFFSCREEN_SLICE));
  }

  /** After a pan or zoom: the pending moves now in view are applied (or everything rebuilt if most are). */
  private applyInView(): void {
    if (this.offscreen.size === 0) return;
    const view = this.map.getBounds().pad(VIEW_PADDING);
    const now: DeviceMarkerDatum[] = [];
    for (const [id, d] of this.offscreen) {
      const old = this.entries.get(id)?.marker.getLatLng();
      if (view.contains([d.lat, d.lon]) || (old && view.contains(old))) {
        now.push(d);
        this.offscreen.delete(id);
      }
    }
    if (now.length === 0) return;
    if (now.length > this.entries.size * REBUILD_SHARE) this.rebuild(now);
    else this.apply(now);
  }

  /** Many moves at once: empty the group, move everything silently, add it back in chunks. */
  private rebuild(devices: readonly DeviceMarkerDatum[]): void {
    this.group.clearLayers();
    this.silently(() => {
      for (const d of devices) {
        const entry = this.entries.get(d.id);
        if (!entry) continue;
        entry.marker.setLatLng([d.lat, d.lon]);
        this.restyle(entry, d);
      }
    });
    this.group.addLayers([...this.entries.values()].map((e) => e.marker));
  }

  /**
   * markercluster re-clusters a member on every 'move' event (a remove and an add each); markers moved here
   * are out of the group for the moment, so the group is told to ignore their moves (its own flag).
   */
  private silently(move: () => void): void {
    const group = this.group as unknown as { _ignoreMove?: boolean };
    group._ignoreMove = true;
    try {
      move();
    } finally {
      group._ignoreMove = false;
    }
  }

  remove(ids: readonly string[]): void {
    const markers: L.Marker[] = [];
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (entry) {
        markers.push(entry.marker);
        this.entries.delete(id);
      }
      this.offscreen.delete(id);
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
    const pending = this.offscreen.get(id);
    if (pending) {
      this.offscreen.delete(id);
      this.apply([pending]);
    }
    const marker = this.marker(id);
    if (!marker) return;
    this.group.zoomToShowLayer(marker, () => then?.());
  }

  destroy(): void {
    clearInterval(this.sliceTimer);
    this.map.off('moveend', this.onViewChange);
    this.map.removeLayer(this.group);
    this.entries.clear();
  }
}
