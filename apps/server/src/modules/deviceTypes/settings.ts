// The device settings drawer's stored values (/api/order/save): the work-mode values are checked with the
// domain's rules (spec §5) before they are stored, as the drawer checks them before it sends.
import { checkTyreThresholds, checkWorkModeSettings, intervalHours, oilVolumeLitres } from '@carhere/domain';

type Items = Readonly<Record<string, string | number | boolean | null>>;

/** A message key when the work-mode values break a rule of spec §5, else null. */
export function orderItemsProblem(items: Items): string | null {
  const minutes = items.timeModeMinutes;
  const powerOn = items.powerOnTime;
  const checked = checkWorkModeSettings({
    timeModeMinutes: minutes === null || minutes === undefined || minutes === '' ? null : (minutes as number),
    powerOnTime: typeof powerOn === 'string' && powerOn !== '' ? powerOn : null,
    mixed: items.mixedMode === true,
  });
  if (!checked.ok) return checked.message;
  if (items.intervalHours !== null && items.intervalHours !== undefined) {
    const hours = intervalHours(items.intervalHours);
    if (!hours.ok) return hours.message;
  }
  const tyres = checkTyreThresholds(items);
  if (!tyres.ok) return tyres.message;
  // The tank volume is one of the spec's options (OIL_VOLUME_OPTIONS_L), as the drawer offers them.
  if (items.oilVolumeL !== null && items.oilVolumeL !== undefined) {
    const litres = oilVolumeLitres(items.oilVolumeL);
    if (!litres.ok) return litres.message;
  }
  return null;
}
