import { MS_PER_DAY } from '../time.ts';
import type { Labelled } from './source.ts';

/** Expiry filters of spec §9: all, expiring within 7 days, within 60 days, already expired. */
export const EXPIRY_FILTERS = [
  { id: 'all', days: null, cn: '全部', en: 'All' },
  { id: 'within7Days', days: 7, cn: '7天内到期', en: 'Expiring within 7 days' },
  { id: 'within60Days', days: 60, cn: '60天内到期', en: 'Expiring within 60 days' },
  { id: 'expired', days: null, cn: '已过期', en: 'Expired' },
] as const satisfies readonly (Labelled & { id: string; days: number | null })[];
export type ExpiryFilter = (typeof EXPIRY_FILTERS)[number]['id'];

/**
 * Whether a device's expiry (epoch ms, null = never) passes a filter. 'expired': expire ≤ now.
 * 'withinNDays': not yet expired and expire ≤ now + N days (exactly N days is included).
 * Devices that never expire only pass 'all'.
 */
export function matchesExpiryFilter(expire: number | null | undefined, filter: ExpiryFilter, now: number): boolean {
  if (filter === 'all') return true;
  if (typeof expire !== 'number' || !Number.isFinite(expire)) return false;
  if (filter === 'expired') return expire <= now;
  const days = filter === 'within7Days' ? 7 : 60;
  return expire > now && expire <= now + days * MS_PER_DAY;
}
