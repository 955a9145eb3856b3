// Whether live updates are flowing (connected, connecting, disconnected).
import { Badge, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LiveStatus } from './live/liveSocket.ts';
import type { MonitorSession } from './monitorSession.ts';

const STATUS: Record<LiveStatus, 'success' | 'processing' | 'error'> = {
  open: 'success',
  connecting: 'processing',
  closed: 'error',
};

export function LiveStatusBadge({ session }: { session: MonitorSession }) {
  const { t } = useTranslation('monitor');
  const [status, setStatus] = useState<LiveStatus>(session.liveStatus);
  useEffect(() => session.status.on(setStatus), [session]);
  return (
    <Tooltip title={t(`live.${status}`)}>
      <span
        data-testid="live-status"
        data-status={status}
        style={{ background: '#fff', borderRadius: 4, padding: '1px 8px', boxShadow: '0 1px 3px rgba(0,0,0,.15)' }}
      >
        <Badge status={STATUS[status]} text={t('live.label')} />
      </span>
    </Tooltip>
  );
}
