// /test/card: cardSearch (search, import, export, check against the ICCIDs devices report) and cardClear.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Select, Space, Table, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CARD_STATES,
  type CardItem,
  checkCards,
  clearCards,
  findCards,
  importCards,
  type Mismatch,
  queryOf,
} from './api.ts';
import { ImportPanel } from './ImportPanel.tsx';

const lines = (text: string) =>
  text
    .split(/\r\n|\r|\n|,/)
    .map((s) => s.trim())
    .filter(Boolean);

function CardList() {
  const { t } = useTranslation('production');
  const [filter, setFilter] = useState<Record<string, string>>({});
  const [page, setPage] = useState({ pageNum: 1, pageSize: 15 });
  const list = useQuery({ queryKey: ['cards', filter, page], queryFn: () => findCards({ ...filter, ...page }) });
  return (
    <>
      <Form
        layout="inline"
        style={{ marginBottom: 12 }}
        onFinish={(v: Record<string, string | undefined>) => {
          setFilter(Object.fromEntries(Object.entries(v).filter(([, x]) => x)) as Record<string, string>);
          setPage((p) => ({ ...p, pageNum: 1 }));
        }}
      >
        <Form.Item name="iccid" label="ICCID">
          <Input allowClear data-testid="card-iccid" />
        </Form.Item>
        <Form.Item name="msisdn" label={t('field.msisdn')}>
          <Input allowClear />
        </Form.Item>
        <Form.Item name="imei" label="IMEI">
          <Input allowClear />
        </Form.Item>
        <Form.Item name="state" label={t('field.state')}>
          <Select
            allowClear
            style={{ width: 120 }}
            options={CARD_STATES.map((s) => ({ value: s, label: t(`card.state.${s}`) }))}
          />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t('action.search')}
          </Button>
          <Button href={`/api/card/export?${queryOf(filter)}`} data-testid="card-export">
            {t('action.export')}
          </Button>
        </Space>
      </Form>
      <Table<CardItem>
        size="small"
        rowKey="iccid"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: list.data?.total ?? 0,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
        columns={[
          { title: 'ICCID', dataIndex: 'iccid' },
          { title: 'IMSI', dataIndex: 'imsi' },
          { title: t('field.msisdn'), dataIndex: 'msisdn' },
          { title: t('field.operator'), dataIndex: 'operator' },
          { title: t('field.plan'), dataIndex: 'plan' },
          { title: t('field.activatedOn'), dataIndex: 'activatedOn' },
          { title: t('field.expiresOn'), dataIndex: 'expiresOn' },
          { title: t('field.state'), dataIndex: 'state', render: (s: string) => t(`card.state.${s}`) },
          { title: 'IMEI', dataIndex: 'imei' },
          {
            title: t('card.reported'),
            dataIndex: 'reportedIccid',
            render: (r: string, c) =>
              r === '' ? '' : <Tag color={r === c.iccid ? 'green' : 'red'}>{r === c.iccid ? t('card.match') : r}</Tag>,
          },
        ]}
      />
    </>
  );
}

function CardCheck() {
  const { t } = useTranslation('production');
  const [imeis, setImeis] = useState('');
  const [page, setPage] = useState({ pageNum: 1, pageSize: 15 });
  const [run, setRun] = useState(0);
  const check = useQuery({
    queryKey: ['cardCheck', run, page],
    queryFn: () => checkCards({ imeis: lines(imeis).length ? lines(imeis) : undefined, ...page }),
    enabled: run > 0,
  });
  return (
    <>
      <Space align="start" style={{ marginBottom: 12 }}>
        <Input.TextArea
          rows={3}
          style={{ width: 320 }}
          placeholder={t('card.checkImeis')}
          value={imeis}
          onChange={(e) => setImeis(e.target.value)}
        />
        <Button type="primary" onClick={() => setRun((n) => n + 1)} data-testid="card-check">
          {t('card.check')}
        </Button>
      </Space>
      {check.data && <div style={{ marginBottom: 8 }}>{t('card.synced', { count: check.data.synced })}</div>}
      <Table<Mismatch>
        size="small"
        rowKey={(m) => `${m.kind}-${m.imei}-${m.cardIccid}`}
        loading={check.isFetching}
        dataSource={check.data?.list ?? []}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: check.data?.total ?? 0,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
        columns={[
          {
            title: t('card.kind'),
            dataIndex: 'kind',
            render: (k: string) => <Tag color="orange">{t(`card.mismatch.${k}`)}</Tag>,
          },
          { title: 'IMEI', dataIndex: 'imei' },
          { title: t('card.boundIccid'), dataIndex: 'cardIccid' },
          { title: t('card.reported'), dataIndex: 'reportedIccid' },
          { title: t('field.msisdn'), dataIndex: 'msisdn' },
        ]}
      />
    </>
  );
}

export function CardSearchPage() {
  const { t } = useTranslation('production');
  const qc = useQueryClient();
  return (
    <Card size="small" title={t('card.title')}>
      <Tabs
        items={[
          { key: 'list', label: t('card.list'), children: <CardList /> },
          {
            key: 'import',
            label: t('card.import'),
            children: (
              <ImportPanel
                kind="cards"
                title={t('card.import')}
                columnsHint={t('card.columns')}
                start={importCards}
                onDone={() => void qc.invalidateQueries({ queryKey: ['cards'] })}
              />
            ),
          },
          { key: 'check', label: t('card.check'), children: <CardCheck /> },
        ]}
      />
    </Card>
  );
}

export function CardClearPage() {
  const { t } = useTranslation('production');
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const values = lines(text);
    if (values.length === 0) return void message.warning(t('import.empty'));
    setBusy(true);
    try {
      // Values of 19-20 characters are ICCIDs, shorter ones IMEIs.
      const iccids = values.filter((v) => v.length >= 19);
      const imeis = values.filter((v) => v.length < 19);
      const res = await clearCards({ iccids, imeis });
      message.success(t('card.cleared', { count: res.cleared }));
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card size="small" title={t('card.clearTitle')}>
      <p>{t('card.clearHint')}</p>
      <Input.TextArea rows={8} value={text} onChange={(e) => setText(e.target.value)} data-testid="card-clear-text" />
      <Button type="primary" danger style={{ marginTop: 12 }} onClick={submit} loading={busy} data-testid="card-clear">
        {t('card.clear')}
      </Button>
    </Card>
  );
}
