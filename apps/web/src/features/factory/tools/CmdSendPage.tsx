// /test/cmdSend: the command console for one device: text or hex content (/config/toHex converts), sent now when
// the device is online, else at its next connection; its recent commands with their replies as they arrive.
import { App, Button, Card, Input, Space, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleHistory, consoleSend, type HistoryRow, toHex } from './api.ts';
import { usePolling, when } from './shared.tsx';

const STATUS_COLORS: Record<string, string> = {
  pending: 'default',
  sent: 'processing',
  answered: 'success',
  timeout: 'warning',
  failed: 'error',
  expired: 'warning',
  cancelled: 'default',
};

export default function CmdSendPage() {
  const { t } = useTranslation('factoryTools');
  const { message } = App.useApp();
  const [imei, setImei] = useState('');
  const [device, setDevice] = useState<string | null>(null);
  const [content, setContent] = useState('');
  const [hex, setHex] = useState(false);
  const [history, setHistory] = useState<HistoryRow[]>([]);
  const [tick, setTick] = useState(0);
  const polling = usePolling(device === null ? null : `${device}-${tick}`, async () => {
    const rows = await consoleHistory(device as string);
    setHistory(rows);
    return rows.some((r) => r.status === 'pending' || r.status === 'sent');
  });
  const fail = (e: Error) => message.error(e.message);
  const open = () => {
    const id = imei.trim();
    if (id) {
      setDevice(id);
      setTick((n) => n + 1);
    }
  };
  const send = async () => {
    if (!device) return;
    await consoleSend({ terminalID: device, content, hex });
    setTick((n) => n + 1);
  };
  const convert = async () => {
    const res = await toHex(content, hex);
    setContent(hex ? res.text : res.hex);
    setHex(!hex);
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="cmd-send-page">
      <Space wrap>
        <Input
          placeholder="IMEI"
          value={imei}
          onChange={(e) => setImei(e.target.value)}
          onPressEnter={open}
          style={{ width: 220 }}
          data-testid="console-imei"
        />
        <Button onClick={open} data-testid="console-open">
          {t('open')}
        </Button>
      </Space>
      {device && (
        <Card title={device}>
          <Space direction="vertical" style={{ width: '100%' }}>
            <Input.TextArea
              rows={2}
              value={content}
              onChange={(e) => setContent(e.target.value)}
              data-testid="console-content"
            />
            <Space wrap>
              <Switch
                checked={hex}
                onChange={setHex}
                checkedChildren="HEX"
                unCheckedChildren={t('text')}
                data-testid="console-hex"
              />
              <Button onClick={() => void convert().catch(fail)} data-testid="console-convert">
                {hex ? t('toText') : t('toHex')}
              </Button>
              <Button type="primary" onClick={() => void send().catch(fail)} data-testid="console-send">
                {t('send')}
              </Button>
            </Space>
            <Table<HistoryRow>
              size="small"
              rowKey="commandId"
              data-testid="console-history"
              loading={polling}
              dataSource={history}
              pagination={false}
              onRow={(r) => ({ 'data-testid': `cmd-${r.commandId}`, 'data-status': r.status }) as never}
              columns={[
                { title: t('time'), dataIndex: 'createdAt', render: when },
                { title: t('content'), dataIndex: 'content' },
                {
                  title: t('status'),
                  dataIndex: 'status',
                  render: (s: string) => <Tag color={STATUS_COLORS[s]}>{t(`cmdStatus.${s}`)}</Tag>,
                },
                { title: t('reply'), dataIndex: 'reply' },
                { title: t('replyTime'), dataIndex: 'answeredAt', render: when },
                { title: t('sender'), dataIndex: 'senderName' },
              ]}
            />
          </Space>
        </Card>
      )}
    </Space>
  );
}
