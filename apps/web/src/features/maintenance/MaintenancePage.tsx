// Maintenance reminders (issue 18): the fleet's due and overdue items; for one device its meters (from the
// statistics, set from the real reading) and its reminders by odometer, engine hours or date.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Form, InputNumber, Modal, Popconfirm, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DeviceSelect } from '../command/DeviceSelect.tsx';
import {
  addMaintenance,
  deleteMaintenance,
  doneMaintenance,
  dueMaintenance,
  findMaintenance,
  type ItemInput,
  type MaintenanceItem,
  type MaintenanceStatus,
  setMeters,
  updateMaintenance,
} from './api.ts';
import { ItemForm } from './ItemForm.tsx';

const STATUS_COLOURS: Record<MaintenanceStatus, string> = {
  ok: 'green',
  due: 'orange',
  overdue: 'red',
  done: 'default',
};

function useFormat() {
  const { t } = useTranslation('maintenance');
  const due = (i: MaintenanceItem) =>
    i.by === 'km'
      ? t('km', { value: i.dueKm })
      : i.by === 'hours'
        ? t('hours', { value: i.dueHours })
        : (i.dueDate ?? '');
  const left = (i: MaintenanceItem) =>
    i.remaining === null
      ? '—'
      : i.by === 'km'
        ? t('km', { value: i.remaining })
        : i.by === 'hours'
          ? t('hours', { value: i.remaining })
          : t('days', { value: i.remaining });
  const status = (s: MaintenanceStatus) => (
    <Tag color={STATUS_COLOURS[s]} data-testid={`maintenance-status-${s}`}>
      {t(`statuses.${s}`)}
    </Tag>
  );
  return { due, left, status };
}

function DueList({ onOpen }: { onOpen: (terminalID: string) => void }) {
  const { t } = useTranslation('maintenance');
  const f = useFormat();
  const list = useQuery({ queryKey: ['maintenanceDue'], queryFn: dueMaintenance, refetchInterval: 60_000 });
  return (
    <Card title={t('dueTitle')}>
      <Table<MaintenanceItem & { deviceName: string }>
        rowKey="id"
        size="small"
        data-testid="maintenance-due-list"
        loading={list.isLoading}
        dataSource={list.data ?? []}
        locale={{ emptyText: t('noDue') }}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: t('device'), dataIndex: 'deviceName' },
          { title: t('name'), dataIndex: 'name' },
          { title: t('due'), key: 'due', render: (_: unknown, i) => f.due(i) },
          { title: t('remaining'), key: 'left', render: (_: unknown, i) => f.left(i) },
          { title: t('status'), dataIndex: 'status', render: f.status },
          {
            title: '',
            key: 'open',
            render: (_: unknown, i) => (
              <Button size="small" onClick={() => onOpen(i.terminalID)}>
                {t('open')}
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
}

function DeviceMaintenance({ terminalID }: { terminalID: string }) {
  const { t } = useTranslation('maintenance');
  const { message } = App.useApp();
  const f = useFormat();
  const client = useQueryClient();
  const [editing, setEditing] = useState<MaintenanceItem | null | 'new'>(null);
  const [metersOpen, setMetersOpen] = useState(false);
  const [metersForm] = Form.useForm<{ odometerKm?: number; engineHours?: number }>();
  const found = useQuery({ queryKey: ['maintenance', terminalID], queryFn: () => findMaintenance(terminalID) });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['maintenance', terminalID] });
    void client.invalidateQueries({ queryKey: ['maintenanceDue'] });
  };
  const onError = (e: Error) => message.error(e.message);
  const save = useMutation({
    mutationFn: (input: ItemInput) =>
      editing && editing !== 'new' ? updateMaintenance(editing.id, input) : addMaintenance(terminalID, input),
    onSuccess: () => {
      message.success(t('saved'));
      setEditing(null);
      refresh();
    },
    onError,
  });
  const done = useMutation({ mutationFn: doneMaintenance, onSuccess: refresh, onError });
  const remove = useMutation({ mutationFn: deleteMaintenance, onSuccess: refresh, onError });
  const meters = useMutation({
    mutationFn: (m: { odometerKm?: number; engineHours?: number }) => setMeters(terminalID, m),
    onSuccess: () => {
      setMetersOpen(false);
      refresh();
    },
    onError,
  });
  const m = found.data?.meters;
  return (
    <>
      <Card
        title={t('meters')}
        extra={
          <Button
            data-testid="maintenance-edit-meters"
            onClick={() => {
              metersForm.setFieldsValue({ odometerKm: m?.odometerKm, engineHours: m?.engineHours });
              setMetersOpen(true);
            }}
          >
            {t('editMeters')}
          </Button>
        }
      >
        <Descriptions size="small" column={{ xs: 1, sm: 3 }}>
          <Descriptions.Item label={t('odometer')}>
            <span data-testid="maintenance-odometer">{t('km', { value: m?.odometerKm ?? 0 })}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('engineHours')}>{t('hours', { value: m?.engineHours ?? 0 })}</Descriptions.Item>
          <Descriptions.Item label="">
            {t('fromStats', { km: m?.statOdometerKm ?? 0, hours: m?.statEngineHours ?? 0 })}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card
        title={t('items')}
        extra={
          <Button type="primary" data-testid="maintenance-add" onClick={() => setEditing('new')}>
            {t('add')}
          </Button>
        }
      >
        <Table<MaintenanceItem>
          rowKey="id"
          size="small"
          data-testid="maintenance-items"
          loading={found.isLoading}
          dataSource={found.data?.items ?? []}
          pagination={false}
          columns={[
            { title: t('name'), dataIndex: 'name' },
            { title: t('by'), dataIndex: 'by', render: (b: string) => t(`byOptions.${b}`) },
            { title: t('due'), key: 'due', render: (_: unknown, i) => f.due(i) },
            { title: t('remaining'), key: 'left', render: (_: unknown, i) => f.left(i) },
            { title: t('status'), dataIndex: 'status', render: f.status },
            {
              title: '',
              key: 'actions',
              render: (_: unknown, i) => (
                <Space size="small">
                  {i.status !== 'done' && (
                    <Popconfirm title={t('doneConfirm')} onConfirm={() => done.mutate(i.id)}>
                      <Button size="small">{t('done')}</Button>
                    </Popconfirm>
                  )}
                  <Button size="small" onClick={() => setEditing(i)}>
                    {t('edit')}
                  </Button>
                  <Popconfirm title={t('deleteConfirm')} onConfirm={() => remove.mutate(i.id)}>
                    <Button size="small" danger>
                      {t('delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <ItemForm
        open={editing !== null}
        item={editing === 'new' ? null : editing}
        saving={save.isPending}
        onCancel={() => setEditing(null)}
        onSave={(input) => save.mutate(input)}
      />
      <Modal
        open={metersOpen}
        title={t('editMeters')}
        okText={t('save')}
        cancelText={t('cancel')}
        onCancel={() => setMetersOpen(false)}
        onOk={() => metersForm.submit()}
        confirmLoading={meters.isPending}
      >
        <Form form={metersForm} layout="vertical" onFinish={(v) => meters.mutate(v)}>
          <Form.Item name="odometerKm" label={t('odometer')}>
            <InputNumber min={0} style={{ width: '100%' }} data-testid="maintenance-odometer-input" />
          </Form.Item>
          <Form.Item name="engineHours" label={t('engineHours')}>
            <InputNumber min={0} style={{ width: '100%' }} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

export default function MaintenancePage() {
  const { t } = useTranslation('maintenance');
  const [params, setParams] = useSearchParams();
  const terminalID = params.get('terminalID') ?? undefined;
  const open = (id: string | undefined) => setParams(id ? { terminalID: id } : {});
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%', padding: 16 }}>
      <Card title={t('title')}>
        <DeviceSelect
          style={{ width: 280 }}
          testId="maintenance-device"
          placeholder={t('device')}
          value={terminalID}
          allowClear
          onChange={open}
        />
      </Card>
      {terminalID ? <DeviceMaintenance terminalID={terminalID} /> : <DueList onOpen={open} />}
    </Space>
  );
}
