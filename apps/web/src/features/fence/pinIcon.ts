// A small round pin drawn with CSS (no image files to resolve), for device and alarm positions.
import type L from 'leaflet';
import { divIcon } from '../../map/html/leafletGuard.ts';
import { html } from '../../map/html/leafletHtml.ts';

export function pinIcon(color = '#1677ff'): L.DivIcon {
  return divIcon({
    className: '',
    html: html`<div style="width:14px;height:14px;border-radius:50%;background:${color};border:2px solid #fff;box-shadow:0 0 0 1px ${color},0 1px 4px rgba(0,0,0,.4)"></div>`,
    iconSize: [18, 18],
    iconAnchor: [9, 9],
  });
}

export const DEVICE_PIN = pinIcon('#1677ff');
export const ALARM_PIN = pinIcon('#ff4d4f');
