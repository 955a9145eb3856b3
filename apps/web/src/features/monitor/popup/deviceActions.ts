// Where a device's actions lead (popup, context menu, list): the pages of the other areas, with the device
// as a query parameter.

export function trackPath(terminalID: string): string {
  return `/index/track?terminalID=${encodeURIComponent(terminalID)}`;
}

export function commandPath(terminalID: string): string {
  return `/index/directive?terminalID=${encodeURIComponent(terminalID)}`;
}

export function fencePath(terminalID: string): string {
  return `/index/fence?terminalID=${encodeURIComponent(terminalID)}`;
}

/** Google Street View at a WGS-84 point. */
export function streetViewUrl(lat: number, lon: number): string {
  return `https://www.google.com/maps/@?api=1&map_action=pano&viewpoint=${lat.toFixed(6)},${lon.toFixed(6)}`;
}
