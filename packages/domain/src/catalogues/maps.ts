/** Default map centre for both coordinate systems (spec §1). */
export const DEFAULT_MAP_CENTER = { lon: 116.404, lat: 39.915 } as const;
