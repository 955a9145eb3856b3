// /test/agps: AGPS assistance files per provider and kind: upload one, or name an upstream URL refreshed on a
// schedule; each file's stable device URL, age, last refresh (and its error) and download count.
import { DeleteOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Card, Form, Input, InputNumber, Popconfirm, Space, Table, Typography, Upload } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sizeText } from './OtaPages.tsx';
import { type AgpsFile, deleteAgps, fileBase64, findAgps, refreshAgps, sourceAgps, uploadAgps } from './otaApi.ts';
import { useLoading, when } from './shared.tsx';

/** An age in seconds as the largest whole unit: 45 s, 12 min, 3 h, 2 d. */
export function ageParts(seconds: number): { n: number; unit: 's' | 'min' | 'h' | 'd' } {
  if (seconds < 60) return { n: seconds, unit: 's' };
  if (seconds < 3600) return { n: Math.floor(seconds / 60), unit: 'min' };
  if (seconds < 86_400) return { n: Math.floor(seconds / 3600), unit: 'h' };
  return { n: Math.floor(seconds / 86_400), unit: 'd' };
}

export default function AgpsPage() {
  const { t } = useTranslation('factoryOta');
  const { message } = App.useApp();
  const [files, setFiles] = useState<AgpsFile[]>([]);
  const [provider, setProvider] = useState('');
  const [kind, setKind] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState('');
  const [minutes, setMinutes] = useState<number | null>(60);
  const fail = (e: Error) => message.error(e.message);
  const [listing, track] = useLoading();
  const load = useCallback(async () => setFiles((await track(findAgps())).list), [track]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: first load only
  useEffect(() => {
    load().catch(fail);
  }, [load]);
  const named = () => {
    if (!provider.trim() || !kind.trim()) {
      message.error(t('agps.nameNeeded'));
      return false;
    }
    return true;
  };
  const upload = async () => {
    if (!named()) return;
    if (!file) {
      message.error(t('chooseFile'));
      return;
    }
    await uploadAgps({
      provider: provider.trim(),
      kind: kind.trim(),
      fileName: file.name,
      data: await fileBase64(file),
    });
    message.success(t('agps.saved'));
    setFile(null);
    await load();
  };
  const setSource = async () => {
    if (!named()) return;
    const f = await sourceAgps({
      provider: provider.trim(),
      kind: kind.trim(),
      upstreamUrl: url.trim() || null,
      refreshMinutes: minutes ?? 60,
    });
    if (f.lastError) message.warning(f.lastError);
    else message.success(t('agps.saved'));
    await load();
  };
  const age = (s: number | null) => {
    if (s === null) return '';
    const { n, unit } = ageParts(s);
    return t(`agps.age.${unit}`, { count: n });
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="agps-page">
      <Card title={t('agps.title')}>
        <Space direction="vertical">
          <Space wrap>
            <Input
              placeholder={t('agps.provider')}
              value={provider}
              onChange={(e) => setProvider(e.target.value)}
              data-testid="agps-provider"
            />
            <Input
              placeholder={t('agps.kind')}
              value={kind}
              onChange={(e) => setKind(e.target.value)}
              data-testid="agps-kind"
            />
          </Space>
          <Space wrap>
            <Upload
              showUploadList={false}
              beforeUpload={(f) => {
                setFile(f);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} data-testid="agps-file">
                {file ? file.name : t('chooseFile')}
              </Button>
            </Upload>
            <Button type="primary" onClick={() => void upload().catch(fail)} data-testid="agps-upload">
              {t('upload')}
            </Button>
          </Space>
          <Space wrap align="end">
            <Form.Item label={t('agps.upstream')} style={{ marginBottom: 0 }}>
              <Input
                style={{ width: 420 }}
                placeholder="https://…"
                value={url}
                onChange={(e) => setUrl(e.target.value)}
                data-testid="agps-url"
              />
            </Form.Item>
            <Form.Item label={t('agps.every')} style={{ marginBottom: 0 }}>
              <InputNumber min={1} max={10080} value={minutes} onChange={setMinutes} data-testid="agps-minutes" />
            </Form.Item>
            <Button onClick={() => void setSource().catch(fail)} data-testid="agps-source">
              {t('agps.setSource')}
            </Button>
          </Space>
        </Space>
      </Card>
      <Table<AgpsFile>
        data-testid="agps-table"
        size="small"
        rowKey="id"
        loading={listing}
        dataSource={files}
        pagination={false}
        onRow={(r) => ({ 'data-testid': `agps-${r.provider}-${r.kind}` }) as never}
        columns={[
          { title: t('agps.provider'), dataIndex: 'provider' },
          { title: t('agps.kind'), dataIndex: 'kind' },
          { title: t('size'), dataIndex: 'size', render: sizeText },
          {
            title: t('agps.ageTitle'),
            dataIndex: 'ageSeconds',
            render: (s: number | null, r) => <span data-testid={`agps-age-${r.id}`}>{age(s)}</span>,
          },
          {
            title: t('agps.downloads'),
            dataIndex: 'downloads',
            render: (n: number, r) => <span data-testid={`agps-downloads-${r.id}`}>{n}</span>,
          },
          {
            title: t('agps.deviceUrl'),
            dataIndex: 'path',
            render: (p: string) => (
              <Typography.Text copyable={{ text: `${window.location.origin}${p}` }} code>
                {p}
              </Typography.Text>
            ),
          },
          {
            title: t('agps.upstream'),
            render: (_, r) =>
              r.upstreamUrl ? (
                <Space direction="vertical" size={0}>
                  <Typography.Text ellipsis style={{ maxWidth: 260 }}>
                    {r.upstreamUrl}
                  </Typography.Text>
                  <Typography.Text type="secondary">
                    {t('agps.refreshEvery', { count: r.refreshMinutes ?? 0 })} · {when(r.lastFetchAt)}
                  </Typography.Text>
                  {r.lastError && <Typography.Text type="danger">{r.lastError}</Typography.Text>}
                </Space>
              ) : (
                t('agps.uploaded')
              ),
          },
          {
            title: t('actions'),
            render: (_, r) => (
              <Space>
                {r.upstreamUrl && (
                  <Button
                    size="small"
                    icon={<ReloadOutlined />}
                    title={t('agps.refreshNow')}
                    onClick={() => void refreshAgps(r.id).then(load).catch(fail)}
                  />
                )}
                <Popconfirm title={t('deleteConfirm')} onConfirm={() => void deleteAgps(r.id).then(load).catch(fail)}>
                  <Button size="small" danger icon={<DeleteOutlined />} />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </Space>
  );
}
