// /test/idManager: the NB-IoT device id ↔ IMEI registry — search, set one, import many ("IMEI,id" rows as text,
// csv or xlsx, a job with progress) with the counts and the rejected lines and why. NB-IoT callbacks and commands find devices by this id.
import { App as AntApp, Button, Card, Input, Space, Table } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImportPanel } from '../production/ImportPanel.tsx';
import { findIds, type IdRow, importIds, setId } from './api.ts';

export default function IdManagerPage() {
  const { t } = useTranslation('factoryLogs');
  const { message } = AntApp.useApp();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<{ total: number; list: IdRow[] }>({ total: 0, list: [] });
  const [imei, setImei] = useState('');
  const [nbId, setNbId] = useState('');
  const [loading, setLoading] = useState(true);
  const search = async (p = 1) => {
    setPage(p);
    setLoading(true);
    try {
      setRows(await findIds({ keyword: keyword.trim() || undefined, pageNum: p, pageSize: 20 }));
    } finally {
      setLoading(false);
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: first load only
  useEffect(() => {
    void search();
  }, []);
  const run = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      await search(page);
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="id-manager-page">
      <Card size="small" title={t('ids.set')}>
        <Space wrap>
          <Input
            placeholder="IMEI"
            value={imei}
            onChange={(e) => setImei(e.target.value)}
            style={{ width: 200 }}
            data-testid="id-imei"
          />
          <Input
            placeholder={t('ids.nbId')}
            value={nbId}
            onChange={(e) => setNbId(e.target.value)}
            style={{ width: 240 }}
            data-testid="id-nb"
          />
          <Button
            type="primary"
            data-testid="id-save"
            onClick={() =>
              void run(async () => {
                await setId(imei.trim(), nbId.trim() || null);
                message.success(t('saved'));
              })
            }
          >
            {t('save')}
          </Button>
        </Space>
      </Card>
      <ImportPanel
        kind="nbIds"
        title={t('ids.import')}
        columnsHint={t('ids.importHint')}
        start={(body) => importIds(body)}
        onDone={() => void search(page)}
      />
      <Space>
        <Input
          placeholder={t('keyword')}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          style={{ width: 220 }}
        />
        <Button onClick={() => void search()}>{t('search')}</Button>
      </Space>
      <Table<IdRow>
        rowKey="terminalID"
        size="small"
        dataSource={rows.list}
        loading={loading}
        data-testid="id-table"
        pagination={{
          current: page,
          pageSize: 20,
          total: rows.total,
          onChange: (p) => void search(p),
          showSizeChanger: false,
        }}
        columns={[
          { title: 'IMEI', dataIndex: 'terminalID' },
          { title: t('ids.nbId'), dataIndex: 'nbDeviceId' },
          { title: t('ids.model'), dataIndex: 'deviceType' },
        ]}
      />
    </Space>
  );
}
