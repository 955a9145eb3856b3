import { describe, expect, it } from 'vitest';
import { addressCacheKey, addressFromAnswer } from './geocode.ts';

describe('reverse geocoding answers', () => {
  it('reads the Baidu-style answer with its semantic description', () => {
    expect(
      addressFromAnswer({
        status: 0,
        result: { formatted_address: '北京市东城区东华门街道', sematic_description: '天安门东138米' },
      }),
    ).toBe('北京市东城区东华门街道 (天安门东138米)');
    expect(addressFromAnswer({ status: 0, result: { formatted_address: 'Main St 1' } })).toBe('Main St 1');
  });

  it('accepts a plain string and refuses failures', () => {
    expect(addressFromAnswer(' Main St 1 ')).toBe('Main St 1');
    expect(addressFromAnswer({ status: 302, result: { formatted_address: 'x' } })).toBeNull();
    expect(addressFromAnswer(null)).toBeNull();
    expect(addressFromAnswer('')).toBeNull();
  });

  it('caches by language and position rounded to about 11 m', () => {
    expect(addressCacheKey({ lat: 39.91501, lon: 116.40401 }, 'cn')).toBe(
      addressCacheKey({ lat: 39.91504, lon: 116.40399 }, 'cn'),
    );
    expect(addressCacheKey({ lat: 39.915, lon: 116.404 }, 'cn')).not.toBe(
      addressCacheKey({ lat: 39.915, lon: 116.404 }, 'en'),
    );
  });
});
