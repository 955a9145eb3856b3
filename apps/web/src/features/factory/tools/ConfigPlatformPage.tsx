// /test/configPlatformForUser: the configuration platform. Per device model the parameter set a device should
// carry (server, heartbeat, upload interval, APN, time zone); push a set to devices as a task, read devices'
// parameters back as a task, and see each device's parameters and where they differ from its model's set.
import { App, Button, Card, Form, Input, InputNumber, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '../../../api/types.ts';
import type { TaskItemState } from '../../tasks/api.ts';
import { StateTag } from '../../tasks/TaskProgress.tsx';
import {
  addConfig,
  type ConfigParams,
  type ConfigProfile,
  type ConfigResult,
  configResults,
  findConfigs,
  pushConfig,
  readConfig,
  updateConfig,
} from './otaApi.ts';
import { ImeiInput, isOpen, useLoading, usePolling } from './shared.tsx';

const KEYS = ['server', 'heartbeat', 'interval', 'apn', 'timezone'] as const;

function paramsText(p: ConfigParams | null, t: (k: string) => string): string {
  if (!p) return '';
  return KEYS.filter((k) => p[k] !== undefined)
    .map((k) => `${t(`cfg.key.${k}`)}: ${p[k]}`)
    .join(' · ');
}

export default function ConfigPlatformPage() {
  const { t } = useTranslation('factoryOta');
  const { message } = App.useApp();
  const [profiles, setProfiles] = useState<ConfigProfile[]>([]);
  const [editing, setEditing] = useState<ConfigProfile | null>(null);
  const [model, setModel] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [params, setParams] = useState<ConfigParams>({});
  const [imeis, setImeis] = useState('');
  const [taskId, setTaskId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Page<ConfigResult>>({ total: 0, list: [] });
  const fail = (e: Error) => message.error(e.message);
  const [listing, track] = useLoading();
  const load = useCallback(async () => setProfiles(await track(findConfigs())), [track]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: first load only
  useEffect(() => {
    load().catch(fail);
  }, [load]);
  const polling = usePolling(taskId === null ? null : `${taskId}-${page}`, async () => {
    const r = await configResults({ taskId: taskId as string, pageNum: page, pageSize: 20 });
    setRows(r);
    return r.list.some((x) => isOpen(x.status));
  });
  const edit = (p: ConfigProfile | null) => {
    setEditing(p);
    setModel(p?.model ?? null);
    setName(p?.name ?? '');
    setParams(p?.params ?? {});
  };
  const clean = (): ConfigParams => {
    const out: ConfigParams = {};
    if (params.server?.trim()) out.server = params.server.trim();
    if (params.apn?.trim()) out.apn = params.apn.trim();
    for (const k of ['heartbeat', 'interval', 'timezone'] as const) {
      const v = params[k];
      if (typeof v === 'number') out[k] = v;
    }
    return out;
  };
  const save = async () => {
    if (editing) await updateConfig({ id: editing.id, name, params: clean() });
    else {
      if (model === null) {
        message.error(t('cfg.modelNeeded'));
        return;
      }
      await addConfig({ model, name, params: clean() });
    }
    message.success(t('cfg.saved'));
    edit(null);
    await load();
  };
  const start = async (kind: 'push' | 'read') => {
    if (kind === 'push' && !editing) {
      message.error(t('cfg.chooseSet'));
      return;
    }
    const res =
      kind === 'push'
        ? await pushConfig({ id: (editing as ConfigProfile).id, text: imeis })
        : await readConfig({ text: imeis });
    message.success(t('taskCreated', { id: res.taskId, total: res.total }));
    setPage(1);
    setTaskId(res.taskId);
  };
  const num = (k: 'heartbeat' | 'interval' | 'timezone', min: number, max: number) => (
    <InputNumber
      min={min}
      max={max}
      value={params[k] ?? null}
      onChange={(v) => setParams({ ...params, [k]: v ?? undefined })}
      data-testid={`cfg-${k}`}
    />
  );
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="config-page">
      <Card title={t('cfg.title')}>
        <Table<ConfigProfile>
          data-testid="cfg-table"
          size="small"
          loading={listing}
          rowKey="id"
          dataSource={profiles}
          pagination={false}
          onRow={(r) => ({ 'data-testid': `cfg-model-${r.model}` }) as never}
          rowClassName={(r) => (r.id === editing?.id ? 'ant-table-row-selected' : '')}
          columns={[
            { title: t('model'), dataIndex: 'model' },
            { title: t('cfg.name'), dataIndex: 'name' },
            { title: t('cfg.params'), render: (_, r) => paramsText(r.params, t) },
            {
              title: t('actions'),
              render: (_, r) => (
                <Button size="small" onClick={() => edit(r)} data-testid={`cfg-edit-${r.model}`}>
                  {t('cfg.choose')}
                </Button>
              ),
            },
          ]}
        />
        <Form layout="vertical" style={{ marginTop: 16 }}>
          <Space wrap align="end">
            <Form.Item label={t('model')} style={{ marginBottom: 0 }}>
              <InputNumber
                min={0}
                max={32767}
                value={model}
                disabled={editing !== null}
                onChange={setModel}
                data-testid="cfg-model"
              />
            </Form.Item>
            <Form.Item label={t('cfg.name')} style={{ marginBottom: 0 }}>
              <Input value={name} onChange={(e) => setName(e.target.value)} data-testid="cfg-name" />
            </Form.Item>
            <Form.Item label={t('cfg.key.server')} style={{ marginBottom: 0 }}>
              <Input
                placeholder="host:port"
                value={params.server ?? ''}
                onChange={(e) => setParams({ ...params, server: e.target.value })}
                data-testid="cfg-server"
              />
            </Form.Item>
            <Form.Item label={t('cfg.key.heartbeat')} style={{ marginBottom: 0 }}>
              {num('heartbeat', 1, 65535)}
            </Form.Item>
            <Form.Item label={t('cfg.key.interval')} style={{ marginBottom: 0 }}>
              {num('interval', 1, 65535)}
            </Form.Item>
            <Form.Item label={t('cfg.key.apn')} style={{ marginBottom: 0 }}>
              <Input
                value={params.apn ?? ''}
                onChange={(e) => setParams({ ...params, apn: e.target.value })}
                data-testid="cfg-apn"
              />
            </Form.Item>
            <Form.Item label={t('cfg.key.timezone')} style={{ marginBottom: 0 }}>
              {num('timezone', -12, 14)}
            </Form.Item>
            <Button type="primary" onClick={() => void save().catch(fail)} data-testid="cfg-save">
              {editing ? t('cfg.update') : t('cfg.add')}
            </Button>
            {editing && <Button onClick={() => edit(null)}>{t('cfg.new')}</Button>}
          </Space>
        </Form>
      </Card>
      <Card title={t('cfg.devices')}>
        <Space direction="vertical" style={{ width: '100%' }}>
          <ImeiInput value={imeis} onChange={setImeis} testId="cfg" />
          <Space>
            <Button type="primary" onClick={() => void start('push').catch(fail)} data-testid="cfg-push">
              {editing ? t('cfg.pushModel', { model: editing.model }) : t('cfg.push')}
            </Button>
            <Button onClick={() => void start('read').catch(fail)} data-testid="cfg-read">
              {t('cfg.read')}
            </Button>
          </Space>
        </Space>
      </Card>
      {taskId && (
        <Card title={t('taskResults', { id: taskId })}>
          <Table<ConfigResult>
            data-testid="cfg-results"
            size="small"
            rowKey={(r, i) => `${r.terminalID}-${i}`}
            loading={polling}
            dataSource={rows.list}
            onRow={(r) =>
              ({
                'data-testid': `row-${r.terminalID}`,
                'data-state': r.status,
                'data-diffs': r.differences === null ? '' : String(r.differences.length),
              }) as never
            }
            pagination={{ current: page, pageSize: 20, total: rows.total, onChange: setPage, showSizeChanger: false }}
            columns={[
              { title: 'IMEI', dataIndex: 'terminalID' },
              { title: t('cfg.command'), dataIndex: 'content' },
              { title: t('status'), dataIndex: 'status', render: (s: TaskItemState) => <StateTag state={s} /> },
              {
                title: t('cfg.params'),
                render: (_, r) => (r.params ? paramsText(r.params, t) : (r.reply ?? r.detail)),
              },
              {
                title: t('cfg.differences'),
                render: (_, r) =>
                  r.differences === null ? (
                    ''
                  ) : r.differences.length === 0 ? (
                    <Tag color="green">{t('cfg.same')}</Tag>
                  ) : (
                    <Space wrap>
                      {r.differences.map((d) => (
                        <Tag color="orange" key={d.key}>
                          {t(`cfg.key.${d.key}`)}: {d.actual ?? '—'} → {d.expected}
                        </Tag>
                      ))}
                    </Space>
                  ),
              },
            ]}
          />
          <Typography.Text type="secondary">{t('cfg.timezoneNote')}</Typography.Text>
        </Card>
      )}
    </Space>
  );
}
