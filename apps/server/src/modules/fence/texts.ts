// Fence answers not in the domain catalogue.
import type { LocalTexts } from './localized.ts';

export const FENCE_TEXTS: LocalTexts = {
  notFound: { cn: '围栏不存在', en: 'The fence does not exist' },
  rectangleBounds: {
    cn: '矩形围栏的范围不正确（最小纬度/经度须小于最大纬度/经度）',
    en: 'The rectangle is not valid: the minimum latitude and longitude must be below the maximum',
  },
  geometryMissing: {
    cn: '请提供围栏的位置：圆形需要中心点和半径，矩形需要两个角点',
    en: 'The fence needs a position: a centre and radius for a circle, two corners for a rectangle',
  },
  deviceNotReachable: {
    cn: '设备不存在或不属于围栏所属用户：{terminalID}',
    en: 'The device does not exist or does not belong to the fence owner: {terminalID}',
  },
  devicesRequired: { cn: '请先选择设备', en: 'Please select a device first' },
  batchLimit: { cn: '一次最多操作 {max} 台设备', en: 'At most {max} devices per operation' },
  ownerNotReachable: { cn: '目标用户不存在', en: 'The target user does not exist' },
};
