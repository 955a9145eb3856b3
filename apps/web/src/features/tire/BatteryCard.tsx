// Battery pack detail of one device (spec §3): voltage, current, percentage, temperature, use count, state.
import { BATTERY_STATES, type BatteryState, labelIn } from '@carhere/domain';
import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Empty, Progress, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { findBattery } from './api.ts';

const dash = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? '-' : v.toFixed(digits));

export function BatteryCard({ terminalID }: { terminalID: string }) {
  const { t, i18n } = useTranslation('tire');
  const report = useQuery({
    queryKey: ['battery', terminalID],
    queryFn: ({ signal }) => findBattery(terminalID, signal),
    refetchInterval: 30_000,
  });
  const pack = report.data?.pack ?? null;
  const state =
    pack && pack.state in BATTERY_STATES
      ? labelIn(BATTERY_STATES[pack.state as BatteryState], i18n.language)
      : pack?.state;
  return (
    <Card
      title={t('batteryTitle')}
      size="small"
      loading={report.isLoading}
      extra={
        report.data?.time ? t('reportedAt', { time: dayjs(report.data.time).format('YYYY-MM-DD HH:mm:ss') }) : undefined
      }
      data-testid="battery-card"
    >
      {report.isError ? (
        <Typography.Text type="danger">{(report.error as Error).message}</Typography.Text>
      ) : !pack ? (
        report.data?.battery !== null && report.data?.battery !== undefined ? (
          <Descriptions size="small" column={1}>
            <Descriptions.Item label={t('battery.level')}>
              <Progress percent={Math.round(report.data.battery)} size="small" style={{ width: 200 }} />
            </Descriptions.Item>
          </Descriptions>
        ) : (
          <Empty description={t('noBatteryData')} />
        )
      ) : (
        <Descriptions size="small" column={2} bordered>
          <Descriptions.Item label={t('battery.percentage')} span={2}>
            <Progress percent={pack.percentage ?? 0} size="small" style={{ width: 240 }} />
          </Descriptions.Item>
          <Descriptions.Item label={t('battery.voltage')}>
            {t('unit.volt', { value: dash(pack.voltage, 2) })}
          </Descriptions.Item>
          <Descriptions.Item label={t('battery.current')}>
            {t('unit.ampere', { value: dash(pack.current, 2) })}
          </Descriptions.Item>
          <Descriptions.Item label={t('battery.temperature')}>
            {t('unit.celsius', { value: dash(pack.temperature) })}
          </Descriptions.Item>
          <Descriptions.Item label={t('battery.useCount')}>{pack.useCount ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('battery.state')} span={2}>
            <span data-testid="battery-state">{state}</span>
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}
