// A route's buses from their live positions: the stop each is at, the next stop and the ETA (GET /api/bus/live,
// refreshed every 10 s). Used on the bus route screen and in the monitor's bus drawer.
import { useQuery } from '@tanstack/react-query';
import { Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type BusRoute, busLive, type LiveBus } from './api.ts';

export const BUS_LIVE_REFRESH_MS = 10_000;

export function useBusLive(routeId: string | null) {
  return useQuery({
    queryKey: ['busLive', routeId],
    queryFn: () => busLive(routeId ?? ''),
    enabled: routeId !== null,
    refetchInterval: BUS_LIVE_REFRESH_MS,
  });
}

export function formatEta(seconds: number | null, t: (k: string, o?: Record<string, unknown>) => string): string {
  if (seconds === null) return '-';
  if (seconds < 60) return t('bus.etaSoon');
  return t('bus.etaMinutes', { count: Math.round(seconds / 60) });
}

export function BusLiveTable({ route, buses }: { route: BusRoute; buses: LiveBus[] }) {
  const { t } = useTranslation('customerMap');
  return (
    <Table<LiveBus>
      size="small"
      rowKey="deviceId"
      pagination={false}
      dataSource={buses}
      data-testid="bus-live"
      columns={[
        { title: t('common.device'), dataIndex: 'displayName' },
        {
          title: t('bus.atStop'),
          render: (_, b) =>
            b.lat === null ? (
              <Tag>{t('bus.noPosition')}</Tag>
            ) : b.atStop !== null ? (
              <Tag color="green">{route.stops[b.atStop]?.name}</Tag>
            ) : (
              <Typography.Text type="secondary">{t('bus.between')}</Typography.Text>
            ),
        },
        {
          title: t('bus.nextStop'),
          render: (_, b) => (b.nextStopName === null ? (b.lat === null ? '-' : t('bus.endOfLine')) : b.nextStopName),
        },
        { title: t('bus.eta'), render: (_, b) => <span data-testid="bus-eta">{formatEta(b.etaSeconds, t)}</span> },
        {
          title: t('bus.state'),
          render: (_, b) => (b.online ? <Tag color="green">{t('bus.online')}</Tag> : <Tag>{t('bus.offline')}</Tag>),
        },
      ]}
    />
  );
}
