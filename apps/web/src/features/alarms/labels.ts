// Alarm names from the domain catalogue in the interface language.
import { ALARM_TYPES, alarmLabel } from '@carhere/domain';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

export function useAlarmLabel(): (code: number) => string {
  const { i18n } = useTranslation();
  return useCallback((code: number) => alarmLabel(code, i18n.language), [i18n.language]);
}

/** Options of the alarm-type filter: every catalogue type, device alarms first. */
export function useAlarmTypeOptions(): { value: number; label: string }[] {
  const { i18n } = useTranslation();
  return useMemo(
    () =>
      ALARM_TYPES.filter((a) => a.code !== 0).map((a) => ({
        value: a.code,
        label: `${alarmLabel(a.code, i18n.language)} (${a.code})`,
      })),
    [i18n.language],
  );
}
