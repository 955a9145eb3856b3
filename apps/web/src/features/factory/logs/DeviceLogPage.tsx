// /test/log/search: the device log by IMEI, and raw frame capture for that IMEI (N minutes; each frame in hex
// beside its decoded JSON, refreshed every 2 s while capture is on).
import { App as AntApp, Button, Card, Input, InputNumber, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DeviceLogRow, type FrameRow, findDeviceLog, frames, startCapture, stopCapture, when } from './api.ts';

export default function DeviceLogPage() {
  const { t } = useTranslation('factoryLogs');
  const { message } = AntApp.useApp();
  const [imei, setImei] = useState('');
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<{ total: number; list: DeviceLogRow[] }>({ total: 0, list: [] });
  const [minutes, setMinutes] = useState(10);
  const [until, setUntil] = useState<string | null>(null);
  const [captured, setCaptured] = useState<FrameRow[]>([]);

  const [loading, setLoading] = useState(true);
  const search = async (p = 1) => {
    setLoading(true);
    try {
      setPage(p);
      setRows(await findDeviceLog({ terminalID: imei.trim() || undefined, pageNum: p, pageSize: 20 }));
      if (imei.trim()) {
        const f = await frames(imei.trim());
        setUntil(f.capture.until);
        setCaptured(f.list);
      }
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    if (!until || !imei.trim()) return;
    const timer = setInterval(async () => {
      const f = await frames(imei.trim()).catch(() => null);
      if (!f) return;
      setUntil(f.capture.until);
      setCaptured(f.list);
    }, 2000);
    return () => clearInterval(timer);
  }, [until, imei]);

  const capturing = until !== null && new Date(until).getTime() > Date.now();
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="device-log-page">
      <Space wrap>
        <Input
          placeholder="IMEI"
          value={imei}
          onChange={(e) => setImei(e.target.value)}
          onPressEnter={() => void search()}
          style={{ width: 220 }}
          data-testid="log-imei"
        />
        <Button type="primary" onClick={() => void search()} data-testid="log-search">
          {t('search')}
        </Button>
      </Space>
      <Table<DeviceLogRow>
        rowKey="id"
        size="small"
        dataSource={rows.list}
        loading={loading}
        pagination={{
          current: page,
          pageSize: 20,
          total: rows.total,
          onChange: (p) => void search(p),
          showSizeChanger: false,
        }}
        columns={[
          { title: t('time'), dataIndex: 'time', render: when },
          { title: 'IMEI', dataIndex: 'terminalID' },
          { title: t('protocol'), dataIndex: 'protocol' },
          { title: t('event'), dataIndex: 'event', render: (e: string) => <Tag>{e}</Tag> },
          { title: t('remote'), dataIndex: 'remote' },
          { title: t('detail'), dataIndex: 'detail' },
        ]}
      />
      <Card title={t('capture.title')} size="small">
        <Space wrap>
          <InputNumber
            min={1}
            max={120}
            value={minutes}
            onChange={(v) => setMinutes(v ?? 10)}
            addonAfter={t('capture.minutes')}
          />
          <Button
            disabled={!imei.trim()}
            type="primary"
            data-testid="capture-start"
            onClick={async () => {
              try {
                setUntil((await startCapture(imei.trim(), minutes)).until);
              } catch (err) {
                message.error((err as Error).message);
              }
            }}
          >
            {t('capture.start')}
          </Button>
          <Button
            disabled={!capturing}
            data-testid="capture-stop"
            onClick={async () => setUntil((await stopCapture(imei.trim())).until)}
          >
            {t('capture.stop')}
          </Button>
          <Typography.Text data-testid="capture-state">
            {capturing ? t('capture.on', { time: when(until) }) : t('capture.off')}
          </Typography.Text>
        </Space>
        <Table<FrameRow>
          rowKey="id"
          size="small"
          style={{ marginTop: 12 }}
          dataSource={captured}
          pagination={{ pageSize: 20, showSizeChanger: false }}
          columns={[
            { title: t('time'), dataIndex: 'time', render: when, width: 180 },
            { title: t('capture.direction'), dataIndex: 'direction', width: 80 },
            {
              title: t('capture.hex'),
              dataIndex: 'hex',
              render: (h: string) => (
                <code style={{ wordBreak: 'break-all' }} data-testid="frame-hex">
                  {h}
                </code>
              ),
            },
            {
              title: t('capture.decoded'),
              dataIndex: 'decoded',
              render: (d: unknown) => (
                <pre style={{ margin: 0, maxHeight: 160, overflow: 'auto', fontSize: 11 }}>
                  {JSON.stringify(d, null, 1)}
                </pre>
              ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
