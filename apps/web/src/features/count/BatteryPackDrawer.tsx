// Battery pack detail (spec §2 "battery pack detail", §3 battery): a device's last pack report — voltage,
// current, charge, temperature, use count and state — from /api/battery.
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Drawer, Empty, Progress, Spin, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { findBatteryPack } from './api.ts';
import { useFormat } from './useFormat.ts';

const STATE_COLOR: Record<string, string> = { charging: 'green', discharging: 'blue', idle: 'default' };

export function BatteryPackDrawer({
  terminalID,
  title,
  onClose,
}: {
  terminalID: string;
  title: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('count');
  const f = useFormat();
  const query = useQuery({
    queryKey: ['count', 'batteryPack', terminalID],
    queryFn: ({ signal }) => findBatteryPack(terminalID, signal),
  });
  const pack = query.data?.pack ?? null;
  const value = (v: number | null | undefined, unit: string, digits = 1) =>
    v === null || v === undefined ? '-' : `${f.fixed(v, digits)} ${unit}`;
  return (
    <Drawer open width={420} title={t('battery.packTitle', { name: title })} onClose={onClose} destroyOnHidden>
      <div data-testid="battery-pack">
        {query.isLoading ? (
          <Spin />
        ) : pack === null ? (
          <Empty description={t('battery.noPack')} />
        ) : (
          <>
            <Progress
              type="dashboard"
              percent={pack.percentage ?? 0}
              status={(pack.percentage ?? 100) <= 10 ? 'exception' : 'normal'}
              style={{ display: 'block', marginBottom: 16, textAlign: 'center' }}
            />
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t('battery.state')}>
                <Tag color={STATE_COLOR[pack.state] ?? 'default'} data-testid="battery-pack-state">
                  {t(`battery.states.${pack.state}`, { defaultValue: pack.state })}
                </Tag>
              </Descriptions.Item>
              <Descriptions.Item label={t('battery.voltage')}>
                <span data-testid="battery-pack-voltage">{value(pack.voltage, 'V', 2)}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('battery.current')}>{value(pack.current, 'A', 2)}</Descriptions.Item>
              <Descriptions.Item label={t('battery.level')}>{value(pack.percentage, '%', 0)}</Descriptions.Item>
              <Descriptions.Item label={t('battery.temperature')}>{value(pack.temperature, '°C', 0)}</Descriptions.Item>
              <Descriptions.Item label={t('battery.useCount')}>{value(pack.useCount, '', 0)}</Descriptions.Item>
              <Descriptions.Item label={t('battery.time')}>
                {query.data?.time ? f.time(query.data.time) : '-'}
              </Descriptions.Item>
            </Descriptions>
          </>
        )}
      </div>
    </Drawer>
  );
}
