// The HTML of car icons (40×40, turned to the heading) and map markers (32×32 pins), coloured by the domain's
// car icon state (expired, offline, unknown, stop, moving, fast, overspeed). Pure, so it is unit-tested.
import { CAR_ICON_SIZE_PX, type CarIconState, MARKER_ICON_SIZE_PX } from '@carhere/domain';
import { html, type LeafletContent } from '../html/leafletHtml.ts';

export const CAR_ICON_SIZE = CAR_ICON_SIZE_PX;
export const MARKER_ICON_SIZE = MARKER_ICON_SIZE_PX;

export const CAR_STATE_COLORS: Readonly<Record<CarIconState, string>> = {
  moving: '#16a34a',
  fast: '#d97706',
  overspeed: '#dc2626',
  stop: '#2563eb',
  unknown: '#64748b',
  offline: '#9ca3af',
  expired: '#7e22ce',
};

/** Headings are drawn in 10° steps, so a device's icon is rebuilt only when it turns noticeably. */
export const HEADING_STEP_DEG = 10;

export function headingStep(course: number): number {
  if (!Number.isFinite(course)) return 0;
  const normalized = ((course % 360) + 360) % 360;
  return (Math.round(normalized / HEADING_STEP_DEG) * HEADING_STEP_DEG) % 360;
}

/** A car seen from above, pointing north before rotation. */
function carSvg(color: string): LeafletContent {
  return html`<svg width="${CAR_ICON_SIZE}" height="${CAR_ICON_SIZE}" viewBox="0 0 40 40" aria-hidden="true"><path d="M14 6c0-2 2-3 6-3s6 1 6 3l2 7v19c0 3-2 5-8 5s-8-2-8-5V13z" fill="${color}" stroke="#fff" stroke-width="1.5"/><path d="M15 14h10l-1 5h-8z M15 29h10l-1-3h-8z" fill="rgba(255,255,255,.75)"/></svg>`;
}

export interface CarIconOptions {
  state: CarIconState;
  course: number;
  /** Name shown under the car; omitted when empty. */
  label?: string;
  selected?: boolean;
}

export function carIconHtml({ state, course, label, selected }: CarIconOptions): LeafletContent {
  const rotation = headingStep(course);
  const ring = selected ? 'box-shadow:0 0 0 3px rgba(22,119,255,.55);border-radius:50%;' : '';
  const tag = label
    ? html`<div class="carhere-car-label" style="position:absolute;top:${CAR_ICON_SIZE}px;left:50%;transform:translateX(-50%);white-space:nowrap;font-size:11px;line-height:16px;padding:0 4px;background:rgba(255,255,255,.92);border:1px solid ${CAR_STATE_COLORS[state]};border-radius:3px;color:#1f2937">${label}</div>`
    : '';
  return html`<div class="carhere-car carhere-car--${state}" data-state="${state}" style="position:relative;width:${CAR_ICON_SIZE}px;height:${CAR_ICON_SIZE}px;${ring}"><div style="transform:rotate(${rotation}deg);width:${CAR_ICON_SIZE}px;height:${CAR_ICON_SIZE}px">${carSvg(CAR_STATE_COLORS[state])}</div>${tag}</div>`;
}

/** The SVG of a 32×32 pin with an optional one- or two-letter caption. */
export function markerSvg(color: string, caption = ''): LeafletContent {
  const text = caption
    ? html`<text x="16" y="16" text-anchor="middle" font-size="11" font-family="sans-serif" fill="#fff" font-weight="bold">${caption}</text>`
    : html`<circle cx="16" cy="13" r="4.5" fill="#fff"/>`;
  return html`<svg width="${MARKER_ICON_SIZE}" height="${MARKER_ICON_SIZE}" viewBox="0 0 32 32" aria-hidden="true"><path d="M16 31s11-11 11-18A11 11 0 0 0 5 13c0 7 11 18 11 18z" fill="${color}" stroke="#fff" stroke-width="1.5"/>${text}</svg>`;
}
