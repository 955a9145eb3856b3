// New alarms pop up (with the alarm sound when it is on). A burst is shown as its first few alarms and a
// count of the rest, so an alarm storm cannot bury the page under notifications.
import { alarmLabel } from '@carhere/domain';
import { App as AntApp, Button } from 'antd';
import dayjs from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { MonitorSession } from '../monitorSession.ts';
import { playAlarmSound } from './alarmSound.ts';

/** Alarms shown one by one per batch; the rest are counted in one summary. */
const SHOWN_PER_BATCH = 3;

export function AlarmNotifier({
  session,
  onLocate,
}: {
  session: MonitorSession;
  onLocate: (deviceId: string) => void;
}) {
  const { t, i18n } = useTranslation('monitor');
  const { notification } = AntApp.useApp();

  useEffect(
    () =>
      session.alarms.on(({ alarms, dropped }) => {
        const fresh = alarms.filter((a) => !a.read);
        if (fresh.length === 0) return;
        playAlarmSound();
        for (const a of fresh.slice(0, SHOWN_PER_BATCH)) {
          const device = session.store.get(a.deviceId);
          notification.warning({
            key: `alarm-${a.id}`,
            title: alarmLabel(a.alarmType, i18n.language),
            description: (
              <div data-testid="alarm-popup">
                <div>{device?.displayName ?? a.terminalID}</div>
                <div>{dayjs(a.time).format('YYYY-MM-DD HH:mm:ss')}</div>
                {a.lat !== null && (
                  <Button size="small" type="link" style={{ padding: 0 }} onClick={() => onLocate(a.deviceId)}>
                    {t('alarm.locate')}
                  </Button>
                )}
              </div>
            ),
            placement: 'bottomRight',
            duration: 8,
          });
        }
        const rest = fresh.length - SHOWN_PER_BATCH + dropped;
        if (rest > 0) {
          notification.warning({
            key: 'alarm-more',
            title: t('alarm.more', { count: rest }),
            placement: 'bottomRight',
            duration: 8,
          });
        }
      }),
    [session, notification, t, i18n.language, onLocate],
  );

  return null;
}
