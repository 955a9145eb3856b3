// /test/log/deviceState: a device's connection history — online now, last seen, online intervals with the
// address it connected from, and the gateway events behind them.
import { App as AntApp, Button, Descriptions, Input, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DeviceLogRow, deviceState, type Interval, when } from './api.ts';

export default function DeviceStatePage() {
  const { t } = useTranslation('factoryLogs');
  const { message } = AntApp.useApp();
  const [imei, setImei] = useState('');
  const [data, setData] = useState<Awaited<ReturnType<typeof deviceState>> | null>(null);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="device-state-page">
      <Space>
        <Input
          placeholder="IMEI"
          value={imei}
          onChange={(e) => setImei(e.target.value)}
          style={{ width: 220 }}
          data-testid="state-imei"
        />
        <Button
          type="primary"
          data-testid="state-search"
          onClick={async () => {
            try {
              setData(await deviceState(imei.trim()));
            } catch (err) {
              message.error((err as Error).message);
            }
          }}
        >
          {t('search')}
        </Button>
      </Space>
      {data && (
        <>
          <Descriptions size="small" bordered column={3}>
            <Descriptions.Item label={t('registered')}>{data.registered ? t('yes') : t('no')}</Descriptions.Item>
            <Descriptions.Item label={t('online')}>
              <Tag color={data.online ? 'green' : 'default'} data-testid="state-online">
                {data.online ? t('online') : t('offline')}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('lastSeen')}>{when(data.lastSeen)}</Descriptions.Item>
          </Descriptions>
          <Table<Interval>
            rowKey={(r) => r.start}
            size="small"
            data-testid="state-intervals"
            dataSource={data.intervals}
            pagination={{ pageSize: 20, showSizeChanger: false }}
            columns={[
              { title: t('intervalStart'), dataIndex: 'start', render: when },
              {
                title: t('intervalEnd'),
                dataIndex: 'end',
                render: (v: string | null) => (v ? when(v) : t('stillOnline')),
              },
              { title: t('remote'), dataIndex: 'remote' },
              { title: t('endedBy'), dataIndex: 'endedBy' },
            ]}
          />
          <Table<DeviceLogRow>
            rowKey="id"
            size="small"
            dataSource={data.events}
            pagination={{ pageSize: 20, showSizeChanger: false }}
            columns={[
              { title: t('time'), dataIndex: 'time', render: when },
              { title: t('event'), dataIndex: 'event' },
              { title: t('remote'), dataIndex: 'remote' },
              { title: t('detail'), dataIndex: 'detail' },
            ]}
          />
        </>
      )}
    </Space>
  );
}
