import { describe, expect, it } from 'vitest';
import { bd09ToMercator, convert } from './coords.ts';
import {
  baiduTileIndex,
  baiduTileRow,
  DEFAULT_MAP_TYPE,
  MAP_PROVIDERS,
  MAP_TYPES,
  quadKey,
  resolveMapType,
  tileUrl,
} from './providers.ts';

describe('map providers', () => {
  it('offers the spec selector order with Baidu first, plus Yandex and Bing', () => {
    expect(MAP_TYPES.slice(0, 6)).toEqual([
      'baidu',
      'baiduSatellite',
      'amap',
      'amapSatellite',
      'google',
      'googleSatellite',
    ]);
    expect(MAP_TYPES).toContain('yandex');
    expect(MAP_TYPES).toContain('bing');
    expect(DEFAULT_MAP_TYPE).toBe('baidu');
  });

  it('falls back to Baidu for unknown types and maps legacy vendor names', () => {
    expect(resolveMapType('openstreetmap')).toBe('baidu');
    expect(resolveMapType(null)).toBe('baidu');
    expect(resolveMapType(42)).toBe('baidu');
    expect(resolveMapType('gaode')).toBe('amap');
    expect(resolveMapType('Google')).toBe('google');
    expect(resolveMapType('googleSatellite')).toBe('googleSatellite');
  });

  it('uses BD-09 for Baidu, GCJ-02 for AMap and Google roads, WGS-84 for Google imagery and Yandex', () => {
    expect(MAP_PROVIDERS.baidu.system).toBe('bd09');
    expect(MAP_PROVIDERS.baiduSatellite.scheme).toBe('baidu');
    expect(MAP_PROVIDERS.amap.system).toBe('gcj02');
    expect(MAP_PROVIDERS.amapSatellite.system).toBe('gcj02');
    expect(MAP_PROVIDERS.google.system).toBe('gcj02');
    expect(MAP_PROVIDERS.googleSatellite.system).toBe('wgs84');
    expect(MAP_PROVIDERS.yandex.scheme).toBe('ellipticalMercator');
  });

  it('computes Bing quadkeys', () => {
    // Microsoft's documented example: tile (3, 5) at level 3 is "213".
    expect(quadKey(3, 5, 3)).toBe('213');
    expect(quadKey(0, 0, 1)).toBe('0');
  });

  it('flips Leaflet rows into Baidu rows consistently with the BD-09 Mercator grid', () => {
    // Tiananmen at zoom 18: one pixel per BD-09 Mercator metre, 256 px tiles.
    const mc = bd09ToMercator(convert({ lat: 39.915, lon: 116.404 }, 'wgs84', 'bd09'));
    const baiduRow = Math.floor(mc.y / 256);
    const leafletRow = Math.floor(-mc.y / 256); // Leaflet: transformation (1, 0, -1, 0), rows grow southwards
    expect(baiduTileRow(leafletRow)).toBe(baiduRow);
    expect(baiduTileIndex(-3)).toBe('M3');
    expect(baiduTileIndex(7)).toBe('7');
  });

  it('builds tile URLs with the flipped Baidu row, the subdomain and the configured key', () => {
    const url = tileUrl(MAP_PROVIDERS.baidu, { x: 50617, y: -18852, z: 18 }, { lang: 'cn', key: 'abc' });
    expect(url).toContain('x=50617&y=18851&z=18');
    expect(url).toMatch(/^https:\/\/maponline[0-3]\.bdimg\.com\//);
    expect(url.endsWith('&ak=abc')).toBe(true);
    const bing = tileUrl(MAP_PROVIDERS.bing, { x: 3, y: 5, z: 3 }, { lang: 'en' });
    expect(bing).toContain('/r213.jpeg');
    expect(bing).not.toContain('key=');
    const google = tileUrl(MAP_PROVIDERS.google, { x: 1, y: 2, z: 3 }, { lang: 'cn' });
    expect(google).toContain('hl=zh-CN');
    expect(google).toContain('x=1&y=2&z=3');
  });
});
