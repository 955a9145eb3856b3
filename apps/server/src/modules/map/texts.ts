// Map answers not in the domain catalogue.
import type { LocalTexts } from '../fence/localized.ts';

export const MAP_TEXTS: LocalTexts = {
  addressUnavailable: { cn: '地址暂不可用', en: 'Address unavailable' },
  'reason.notConfigured': { cn: '未配置地址解析服务', en: 'No address service is configured' },
  'reason.providerFailed': { cn: '地址服务暂时无法访问', en: 'The address service cannot be reached right now' },
  'reason.notFound': { cn: '该位置没有地址', en: 'No address is known for this place' },
  suggestionsUnavailable: { cn: '地点搜索暂不可用', en: 'Place search unavailable' },
  badLocation: { cn: '位置格式错误，应为“纬度,经度”', en: 'The location must be "latitude,longitude"' },
  badTemplate: {
    cn: '地址服务的网址必须以 http:// 或 https:// 开头',
    en: 'Address service URLs must start with http:// or https://',
  },
};
