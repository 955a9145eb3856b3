// Share a device's live position (issue 18): choose how long, get the link (shown once: only its hash is kept),
// and see every link of the device with who made it, until when, and revoke it.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DeviceSelect } from '../command/DeviceSelect.tsx';
import { addShareLink, findShareLinks, revokeShareLink, type ShareLink } from './api.ts';

const DURATIONS = [1, 6, 24, 72, 168];
const STATE_COLOURS = { active: 'green', expired: 'default', revoked: 'red' } as const;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

export default function SharePage() {
  const { t } = useTranslation('share');
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const terminalID = params.get('terminalID') ?? undefined;
  const [hours, setHours] = useState(24);
  const [made, setMade] = useState<string | null>(null);
  const client = useQueryClient();
  const links = useQuery({
    queryKey: ['shareLinks', terminalID],
    queryFn: () => findShareLinks(terminalID!),
    enabled: Boolean(terminalID),
  });
  const add = useMutation({
    mutationFn: () => addShareLink(terminalID!, hours),
    onSuccess: (r) => {
      setMade(`${location.origin}${r.path}`);
      void client.invalidateQueries({ queryKey: ['shareLinks', terminalID] });
    },
    onError: (e: Error) => message.error(e.message),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => revokeShareLink(id),
    onSuccess: () => {
      message.success(t('revoked'));
      void client.invalidateQueries({ queryKey: ['shareLinks', terminalID] });
    },
    onError: (e: Error) => message.error(e.message),
  });

  return (
    <Space direction="vertical" style={{ width: '100%', padding: 16 }} size="middle">
      <Card title={t('title')}>
        <Space wrap>
          <DeviceSelect
            style={{ width: 280 }}
            testId="share-device"
            placeholder={t('device')}
            value={terminalID}
            onChange={(id) => {
              setMade(null);
              setParams(id ? { terminalID: id } : {});
            }}
          />
          <span>{t('duration')}</span>
          <Select
            data-testid="share-hours"
            style={{ width: 140 }}
            value={hours}
            onChange={setHours}
            options={DURATIONS.map((h) => ({ value: h, label: t(`durations.${h}`) }))}
          />
          <Button
            type="primary"
            data-testid="share-create"
            disabled={!terminalID}
            loading={add.isPending}
            onClick={() => add.mutate()}
          >
            {t('create')}
          </Button>
        </Space>
        {!terminalID && <Alert style={{ marginTop: 12 }} type="info" message={t('noDevice')} />}
        {made && (
          <Alert
            style={{ marginTop: 12 }}
            type="success"
            message={t('created')}
            description={
              <Space.Compact style={{ width: '100%' }}>
                <Input readOnly value={made} data-testid="share-link" />
                <Button
                  onClick={() => {
                    void navigator.clipboard?.writeText(made).then(() => message.success(t('copied')));
                  }}
                >
                  {t('copy')}
                </Button>
                <Button href={made} target="_blank" rel="noreferrer">
                  {t('open')}
                </Button>
              </Space.Compact>
            }
          />
        )}
      </Card>
      {terminalID && (
        <Card title={t('list')}>
          <Table<ShareLink>
            rowKey="id"
            size="small"
            data-testid="share-list"
            loading={links.isLoading}
            dataSource={links.data ?? []}
            pagination={false}
            columns={[
              { title: t('createdBy'), dataIndex: 'createdBy' },
              { title: t('createdAt'), dataIndex: 'createdAt', render: when },
              { title: t('expiresAt'), dataIndex: 'expiresAt', render: when },
              { title: t('lastViewedAt'), dataIndex: 'lastViewedAt', render: when },
              {
                title: t('state'),
                dataIndex: 'state',
                render: (s: ShareLink['state']) => <Tag color={STATE_COLOURS[s]}>{t(`states.${s}`)}</Tag>,
              },
              {
                title: '',
                key: 'actions',
                render: (_: unknown, r) =>
                  r.state === 'active' ? (
                    <Popconfirm title={t('revokeConfirm')} onConfirm={() => revoke.mutate(r.id)}>
                      <Button size="small" danger data-testid={`share-revoke-${r.id}`}>
                        {t('revoke')}
                      </Button>
                    </Popconfirm>
                  ) : null,
              },
            ]}
          />
        </Card>
      )}
    </Space>
  );
}
