// Number, distance, duration and time formats of the statistics screens in the interface language; times in
// the user's zone (the zone that also cuts the days).
import { formatDateTime, PAGE_SIZE_OPTIONS, STATISTICS_PAGE_SIZE } from '@carhere/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/store.ts';
import { formatKm, formatNumber, hoursMinutes } from './figures.ts';
import { userZone } from './period.ts';

/** Table page sizes: the usual 10-100 (spec §9) and the statistics size 100000, i.e. everything at once. */
export const COUNT_PAGE_SIZES = [...PAGE_SIZE_OPTIONS, STATISTICS_PAGE_SIZE].map(String);

export function useFormat() {
  const { t, i18n } = useTranslation('count');
  const auth = useAuth();
  const zone = userZone(auth?.userInfo.timeZone);
  const lang = i18n.language;
  return useMemo(
    () => ({
      km: (metres: number) => t('unit.km', { value: formatKm(metres, lang) }),
      kmBare: (metres: number) => formatKm(metres, lang),
      num: (n: number, digits = 0) => formatNumber(n, lang, digits),
      /** Always `digits` decimals (a voltage: 51.20 V). */
      fixed: (n: number, digits: number) => formatNumber(n, lang, digits, true),
      speed: (kmh: number) => t('unit.kmh', { value: formatNumber(kmh, lang, 0) }),
      duration: (seconds: number) => t('unit.duration', hoursMinutes(seconds)),
      time: (iso: string | number) => formatDateTime(typeof iso === 'number' ? iso : Date.parse(iso), zone),
      hm: (ms: number) => formatDateTime(ms, zone, 'MM-DD HH:mm'),
      date: (iso: string | null) => (iso ? formatDateTime(Date.parse(iso), zone, 'YYYY-MM-DD') : '-'),
    }),
    [t, lang, zone],
  );
}
