// The special-brand rule of spec §6 written over device-list entries, as the reference the tests hold
// specialBrand.ts's SQL condition to: hidden are not-activated devices and offline devices whose last report
// is 3 days old or more (or that never reported), unless the IMEI is in the no-process set.
import { DEVICE_STATE, type DeviceListEntry, lastReportTime, OFFLINE_HIDE_AFTER_MS } from '@carhere/domain';

export function isHiddenForSpecialBrand(
  device: DeviceListEntry,
  now: number,
  noProcess: ReadonlySet<string> = new Set(),
): boolean {
  if (noProcess.has(device.terminalID)) return false;
  if (device.state === DEVICE_STATE.notActivated) return true;
  if (device.state !== DEVICE_STATE.offline) return false;
  const seen = lastReportTime(device);
  return seen === null || now - seen >= OFFLINE_HIDE_AFTER_MS;
}
