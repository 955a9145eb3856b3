// Whether a device feature may be used on a chosen device: the domain's access check (spec §4: 1 supported,
// 2 inactive, 3 past due, 4 select device; inactive and expired devices cannot be used normally), applied per
// feature. Used by the monitoring popup and context menus, the command page, track playback and fences.
import { ACCESS_CHECK, type AccessCheck, checkDeviceAccess, type MessageKey } from '@carhere/domain';

export type DeviceFeature = 'command' | 'track' | 'fence' | 'streetView' | 'follow' | 'info';

/**
 * Which features need a usable device (neither not activated nor expired). Our decisions:
 * - command, track playback, fence: the device's services; refused (the server refuses commands to expired
 *   devices too).
 * - street view and follow: live tracking of the device's position; refused like track playback.
 * - device info: only reads what the account already holds (name, IMEI, SIM, expiry), which is what the user
 *   needs to renew the service, so it stays open for every device.
 */
export const FEATURE_NEEDS_USABLE_DEVICE: Readonly<Record<DeviceFeature, boolean>> = {
  command: true,
  track: true,
  fence: true,
  streetView: true,
  follow: true,
  info: false,
};

/** What the check needs: the state code (zx/lx/wjh) and the effective expiry (epoch ms or ISO-8601). */
export interface AccessSubject {
  readonly state: string | null | undefined;
  readonly expire?: number | string | null;
}

/** An expiry as epoch ms: a number as it is, an ISO-8601 text parsed; anything else (or unparseable) is none. */
export function expiryMs(expire: number | string | null | undefined): number | null {
  if (typeof expire === 'number') return Number.isFinite(expire) ? expire : null;
  if (typeof expire === 'string' && expire !== '') {
    const t = Date.parse(expire);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}

/** The access check for using `feature` on `device`; no device is 4 'select a device first' for every feature. */
export function featureAccess(
  feature: DeviceFeature,
  device: AccessSubject | null | undefined,
  now: number,
): AccessCheck {
  if (!device) return checkDeviceAccess(null, now);
  if (!FEATURE_NEEDS_USABLE_DEVICE[feature]) return { code: ACCESS_CHECK.supported };
  return checkDeviceAccess({ state: device.state, expire: expiryMs(device.expire) }, now);
}

/** The message key when `feature` may not be used on `device`, else null. */
export function accessRefusal(
  feature: DeviceFeature,
  device: AccessSubject | null | undefined,
  now: number,
): MessageKey | null {
  const check = featureAccess(feature, device, now);
  return check.code === ACCESS_CHECK.supported ? null : (check.message ?? 'device.selectFirst');
}

/**
 * Picked devices (by id) split into those the feature may use and the first refusal. A pick whose device is
 * not known (the list is still loading, or the device is not in it) is let through: the server decides.
 */
export function admitDevices<T>(
  feature: DeviceFeature,
  picks: readonly T[],
  lookup: (pick: T) => AccessSubject | null | undefined,
  now: number,
): { allowed: T[]; refused: MessageKey | null } {
  const allowed: T[] = [];
  let refused: MessageKey | null = null;
  for (const pick of picks) {
    const device = lookup(pick);
    const refusal = device ? accessRefusal(feature, device, now) : null;
    if (refusal) refused ??= refusal;
    else allowed.push(pick);
  }
  return { allowed, refused };
}
