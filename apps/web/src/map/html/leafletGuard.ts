// Installs the escaper's guard on the app's Leaflet (imported by BaseMap and by every map layer), and the
// typed doors to Leaflet's HTML: bindTooltip / bindPopup / setContent take LeafletContent, and div icons are
// made by divIcon() below with LeafletContent html.
import L from 'leaflet';
import { guardLeaflet, type LeafletContent } from './leafletHtml.ts';

/** Marks console errors of this guard; the browser suite fails on them (e2e/harness.ts). */
export const GUARD_MESSAGE = '[carhere] HTML reached Leaflet without the escaper';

guardLeaflet(L as unknown as Parameters<typeof guardLeaflet>[0], (api, value) => {
  console.error(`${GUARD_MESSAGE} (apps/web/src/map/html/leafletHtml.ts) in ${api}; shown as text:`, value);
});

declare module 'leaflet' {
  interface Layer {
    bindTooltip(content: LeafletContent | ((layer: Layer) => LeafletContent), options?: TooltipOptions): this;
    bindPopup(content: LeafletContent | ((layer: Layer) => LeafletContent), options?: PopupOptions): this;
    setTooltipContent(content: LeafletContent): this;
    setPopupContent(content: LeafletContent): this;
  }
  interface DivOverlay {
    setContent(content: LeafletContent | ((source: Layer) => LeafletContent)): this;
  }
}

export interface SafeDivIconOptions extends Omit<L.DivIconOptions, 'html'> {
  html: LeafletContent;
}

/** A Leaflet div icon whose HTML was made by the escaper. */
export function divIcon(options: SafeDivIconOptions): L.DivIcon {
  return L.divIcon(options as unknown as L.DivIconOptions);
}
