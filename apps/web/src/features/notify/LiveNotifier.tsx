// In-app notifications of the user's rules for events that are not alarms (online, offline, ignition, expiry,
// command result, maintenance, tests): an antd notification titled in the reader's language, without the alarm
// sound (alarms pop up through AlarmNotifier).
import { notifyEventTitle } from '@carhere/domain';
import { App as AntApp } from 'antd';
import dayjs from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { MonitorSession } from '../monitor/monitorSession.ts';

export function LiveNotifier({ session }: { session: MonitorSession }) {
  const { i18n } = useTranslation();
  const { notification } = AntApp.useApp();
  useEffect(
    () =>
      session.notifications.on((m) => {
        notification.info({
          key: `notify-${m.id}`,
          title: notifyEventTitle(m.event, i18n.language),
          description: (
            <div data-testid="notify-popup" data-event={m.event}>
              <div>{m.deviceName ? `${m.deviceName} (${m.terminalID})` : m.terminalID}</div>
              <div>{dayjs(m.time).format('YYYY-MM-DD HH:mm:ss')}</div>
              {m.detail && <div>{m.detail}</div>}
            </div>
          ),
          placement: 'bottomRight',
          duration: 8,
        });
      }),
    [session, notification, i18n.language],
  );
  return null;
}
