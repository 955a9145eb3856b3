// /index/drivers: the account's driver records (name, phone, licence, IC card number) and which vehicle each
// drives now. A vehicle's driver is set here by hand, or by the driver card a JT/T 808 terminal reads (0x0702).
import { useQuery } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/store.ts';
import { assignDriver, type Driver, deleteDriver, findDrivers, saveDriver } from './api.ts';

type Fields = Pick<Driver, 'name' | 'phone' | 'licence' | 'icCard'>;

export default function DriversPage() {
  const { t } = useTranslation('custself');
  const { message } = App.useApp();
  const auth = useAuth();
  const canEdit = (auth?.permissions ?? []).some((p) => p === '*:*:*' || p === 'main:device_edit');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Driver | 'new' | null>(null);
  const [assigning, setAssigning] = useState(false);
  const [form] = Form.useForm<Fields>();
  const [assignForm] = Form.useForm<{ terminalID: string; driverId: string | null }>();
  const list = useQuery({
    queryKey: ['drivers', keyword, page],
    queryFn: () => findDrivers({ keyword: keyword || undefined, pageNum: page, pageSize: 15 }),
  });

  const open = (d: Driver | 'new') => {
    setEditing(d);
    form.setFieldsValue(d === 'new' ? { name: '', phone: '', licence: '', icCard: '' } : d);
  };
  const save = async () => {
    const v = await form.validateFields();
    try {
      await saveDriver({ ...(editing && editing !== 'new' ? { id: editing.id } : {}), ...v });
      message.success(t('drivers.saved'));
      setEditing(null);
      void list.refetch();
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  const assign = async () => {
    const v = await assignForm.validateFields();
    try {
      await assignDriver(v.terminalID.trim(), v.driverId ?? null);
      message.success(t('drivers.assigned'));
      setAssigning(false);
      void list.refetch();
    } catch (err) {
      message.error((err as Error).message);
    }
  };

  return (
    <div style={{ padding: 16 }} data-testid="drivers-page">
      <Typography.Title level={4}>{t('drivers.title')}</Typography.Title>
      <Space style={{ marginBottom: 12 }} wrap>
        <Input.Search
          allowClear
          placeholder={t('drivers.search')}
          onSearch={(v) => {
            setPage(1);
            setKeyword(v.trim());
          }}
          style={{ width: 260 }}
        />
        {canEdit && (
          <>
            <Button type="primary" onClick={() => open('new')} data-testid="driver-add">
              {t('drivers.add')}
            </Button>
            <Button onClick={() => setAssigning(true)} data-testid="driver-assign">
              {t('drivers.assign')}
            </Button>
          </>
        )}
      </Space>
      <Table<Driver>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        pagination={{ current: page, pageSize: 15, total: list.data?.total ?? 0, onChange: setPage }}
        columns={[
          { title: t('drivers.name'), dataIndex: 'name' },
          { title: t('drivers.phone'), dataIndex: 'phone' },
          { title: t('drivers.licence'), dataIndex: 'licence' },
          { title: t('drivers.icCard'), dataIndex: 'icCard' },
          {
            title: t('drivers.vehicles'),
            dataIndex: 'vehicles',
            render: (v: string[]) => v.map((imei) => <Tag key={imei}>{imei}</Tag>),
          },
          ...(canEdit
            ? [
                {
                  title: t('drivers.actions'),
                  key: 'actions',
                  render: (_: unknown, d: Driver) => (
                    <Space>
                      <Button size="small" type="link" onClick={() => open(d)}>
                        {t('drivers.edit')}
                      </Button>
                      <Popconfirm
                        title={t('drivers.confirmDelete')}
                        onConfirm={async () => {
                          try {
                            await deleteDriver(d.id);
                            void list.refetch();
                          } catch (err) {
                            message.error((err as Error).message);
                          }
                        }}
                      >
                        <Button size="small" type="link" danger>
                          {t('drivers.delete')}
                        </Button>
                      </Popconfirm>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? t('drivers.add') : t('drivers.edit')}
        onCancel={() => setEditing(null)}
        onOk={() => void save()}
        okButtonProps={{ 'data-testid': 'driver-save' } as never}
        destroyOnHidden
      >
        <Form form={form} layout="vertical">
          <Form.Item name="name" label={t('drivers.name')} rules={[{ required: true, max: 50 }]}>
            <Input data-testid="driver-name" />
          </Form.Item>
          <Form.Item name="phone" label={t('drivers.phone')} rules={[{ pattern: /^[0-9+\-() ]{0,20}$/ }]}>
            <Input data-testid="driver-phone" />
          </Form.Item>
          <Form.Item name="licence" label={t('drivers.licence')} rules={[{ max: 40 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="icCard" label={t('drivers.icCard')} rules={[{ pattern: /^[0-9A-Za-z-]{0,30}$/ }]}>
            <Input data-testid="driver-card" />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={assigning}
        title={t('drivers.assign')}
        onCancel={() => setAssigning(false)}
        onOk={() => void assign()}
        okButtonProps={{ 'data-testid': 'driver-assign-ok' } as never}
        destroyOnHidden
      >
        <Form form={assignForm} layout="vertical">
          <Form.Item name="terminalID" label="IMEI" rules={[{ required: true }]}>
            <Input data-testid="driver-assign-imei" />
          </Form.Item>
          <Form.Item name="driverId" label={t('drivers.name')}>
            <Select
              allowClear
              data-testid="driver-assign-select"
              placeholder={t('drivers.none')}
              options={(list.data?.list ?? []).map((d) => ({ value: d.id, label: `${d.name} ${d.phone}` }))}
            />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
