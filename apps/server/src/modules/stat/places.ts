// Place names for the stays and trips answers and their exports (issue 17: a place, not coordinates): the
// nearest populated place from the built-in index (map/offline/places.ts), in the caller's language.
import { isLanguage } from '@carhere/domain';
import { offlineAddresser } from '../map/offline/places.ts';
import type { StayRow, TripRow } from './queries.ts';

type PlaceOf = (lat: number | null, lon: number | null) => string;

/** The offline addresser for a language code (English when the code is not one of the platform's). */
export function placesIn(lang: string): Promise<PlaceOf> {
  return offlineAddresser(isLanguage(lang) ? lang : 'en');
}

export function withStayAddresses(rows: StayRow[], placeOf: PlaceOf): (StayRow & { address: string })[] {
  return rows.map((r) => ({ ...r, address: placeOf(r.lat, r.lon) }));
}

export function withTripAddresses(
  rows: TripRow[],
  placeOf: PlaceOf,
): (TripRow & { startAddress: string; endAddress: string })[] {
  return rows.map((r) => ({
    ...r,
    startAddress: placeOf(r.startLat, r.startLon),
    endAddress: placeOf(r.endLat, r.endLon),
  }));
}
