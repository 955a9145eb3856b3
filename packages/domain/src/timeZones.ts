import { formatOffset } from './time.ts';

/** One selectable device/user time zone: whole hours from west 12 to east 12, zone 0 included (spec §9). */
export interface TimeZoneOption {
  /** Hours east of UTC: -12 … 12. */
  readonly offsetHours: number;
  /** Fixed-offset zone name usable with the time functions: '+08:00'. */
  readonly zone: string;
  readonly cn: string;
  readonly en: string;
}

const CN_NUMBERS = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九', '十', '十一', '十二'];

function option(offsetHours: number): TimeZoneOption {
  const zone = formatOffset(offsetHours * 60);
  const cn = offsetHours === 0 ? '零时区' : `${offsetHours > 0 ? '东' : '西'}${CN_NUMBERS[Math.abs(offsetHours)]}区`;
  return { offsetHours, zone, cn, en: `UTC${zone}` };
}

/** West 12 … east 12: 25 options, in order. */
export const TIME_ZONE_OPTIONS: readonly TimeZoneOption[] = Array.from({ length: 25 }, (_, i) => option(i - 12));

export function isTimeZoneOffsetHours(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= -12 && (value as number) <= 12;
}
