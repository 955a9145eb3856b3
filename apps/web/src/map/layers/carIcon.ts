// Car icons (40×40, turned to the heading) and map markers (32×32 pins) as Leaflet div icons.
import type L from 'leaflet';
import { divIcon } from '../html/leafletGuard.ts';
import { CAR_ICON_SIZE, type CarIconOptions, carIconHtml, MARKER_ICON_SIZE, markerSvg } from './carIconHtml.ts';

export function carIcon(options: CarIconOptions): L.DivIcon {
  return divIcon({
    className: 'carhere-car-icon',
    html: carIconHtml(options),
    iconSize: [CAR_ICON_SIZE, CAR_ICON_SIZE],
    iconAnchor: [CAR_ICON_SIZE / 2, CAR_ICON_SIZE / 2],
    popupAnchor: [0, -CAR_ICON_SIZE / 2],
  });
}

/** A 32×32 pin (track start and end, stop points, alarms), with an optional one- or two-letter caption. */
export function markerIcon(color: string, caption = ''): L.DivIcon {
  return divIcon({
    className: 'carhere-marker-icon',
    html: markerSvg(color, caption),
    iconSize: [MARKER_ICON_SIZE, MARKER_ICON_SIZE],
    iconAnchor: [MARKER_ICON_SIZE / 2, MARKER_ICON_SIZE],
    popupAnchor: [0, -MARKER_ICON_SIZE],
  });
}
