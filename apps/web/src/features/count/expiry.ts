// Past-due figures (pure, tested): whole days left until an expiry, and the earlier of the two expiries.

const DAY_MS = 86_400_000;

/** Days until `iso` from `now`, rounded up (negative: expired that many days ago); null without an expiry. */
export function daysLeft(iso: string | null, now: number): number | null {
  if (!iso) return null;
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return null;
  return Math.ceil((at - now) / DAY_MS);
}

/** The expiry that comes first of platform and user expiry (either may be missing). */
export function firstExpiry(platform: string | null, user: string | null): string | null {
  const times = [platform, user].filter((x): x is string => x !== null && Number.isFinite(Date.parse(x)));
  if (times.length === 0) return null;
  return times.reduce((a, b) => (Date.parse(a) <= Date.parse(b) ? a : b));
}

/** Link to the expiry screen with the devices' IMEIs filled in (one per line there). */
export function expiryLink(terminalIDs: readonly string[]): string {
  return `/index/device/deviceUpdateTime?imeis=${encodeURIComponent(terminalIDs.join(','))}`;
}
