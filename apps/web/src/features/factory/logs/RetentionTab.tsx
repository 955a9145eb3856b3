// /test/log/monitor, "Retention" tab: how many days each log kind is kept (device log, raw frames, system log,
// command log, tasks). The server's hourly cleanup deletes what is older; row caps bound the noisy kinds too.
import { App as AntApp, Button, InputNumber, Space, Table } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchRetention, LOG_KINDS, type LogKind, saveRetention } from './api.ts';

export default function RetentionTab() {
  const { t } = useTranslation('factoryLogs');
  const { message } = AntApp.useApp();
  const [saved, setSaved] = useState<Record<LogKind, number> | null>(null);
  const [edited, setEdited] = useState<Partial<Record<LogKind, number>>>({});
  useEffect(() => {
    fetchRetention().then(setSaved, (err: Error) => message.error(err.message));
  }, [message]);
  const save = async (kind: LogKind) => {
    const days = edited[kind];
    if (days === undefined) return;
    try {
      setSaved(await saveRetention(kind, days));
      setEdited(({ [kind]: _, ...rest }) => rest);
      message.success(t('saved'));
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="retention-tab">
      <div>{t('retention.hint')}</div>
      <Table<{ kind: LogKind }>
        rowKey="kind"
        size="small"
        pagination={false}
        loading={saved === null}
        dataSource={LOG_KINDS.map((kind) => ({ kind }))}
        columns={[
          { title: t('retention.kind'), dataIndex: 'kind', render: (k: LogKind) => t(`retention.kinds.${k}`) },
          {
            title: t('retention.days'),
            dataIndex: 'kind',
            key: 'days',
            render: (k: LogKind) => (
              <Space>
                <InputNumber
                  min={1}
                  max={3650}
                  precision={0}
                  value={edited[k] ?? saved?.[k]}
                  onChange={(v) => setEdited((old) => ({ ...old, [k]: v ?? undefined }))}
                  data-testid={`retention-${k}`}
                />
                <Button
                  size="small"
                  type="primary"
                  disabled={edited[k] === undefined || edited[k] === saved?.[k]}
                  onClick={() => void save(k)}
                  data-testid={`retention-save-${k}`}
                >
                  {t('save')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
    </Space>
  );
}
