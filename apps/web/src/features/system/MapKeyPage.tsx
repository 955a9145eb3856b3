// System → mapKey: the key of each map vendor (per project and device platform) that /api/map/getKey hands
// to the web, and the address service behind reverse geocoding and place suggestions.
import { DEFAULT_MAP_CENTER } from '@carhere/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, InputNumber, Popconfirm, Select, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { forgetMapKeys } from '../../map/mapKeys.ts';
import {
  deleteKey,
  findGeocoder,
  findKeys,
  GEOCODER_KINDS,
  type GeocoderSettings,
  MAP_VENDORS,
  type MapKeyEntry,
  saveGeocoder,
  saveKey,
  testAddress,
} from './api.ts';
import { MapProvidersCard } from './MapProvidersCard.tsx';
import { SystemTabs } from './SystemTabs.tsx';

export default function MapKeyPage() {
  return (
    <SystemTabs active="mapKey">
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        <MapKeys />
        <MapProvidersCard />
        <AddressService />
      </Space>
    </SystemTabs>
  );
}

function MapKeys() {
  const { t } = useTranslation('system');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Omit<MapKeyEntry, 'updatedAt'>>();
  const keys = useQuery({ queryKey: ['mapKeys'], queryFn: findKeys });
  const changed = (entries: MapKeyEntry[]) => {
    queryClient.setQueryData(['mapKeys'], entries);
    forgetMapKeys();
  };
  const save = useMutation({
    mutationFn: saveKey,
    onSuccess: (entries) => {
      changed(entries);
      form.setFieldValue('key', '');
      message.success(t('saved'));
    },
    onError: (err: Error) => message.error(err.message),
  });
  const remove = useMutation({
    mutationFn: deleteKey,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['mapKeys'] });
      forgetMapKeys();
      message.success(t('deleted'));
    },
    onError: (err: Error) => message.error(err.message),
  });
  return (
    <Card title={t('mapKey.title')} size="small">
      <Typography.Paragraph type="secondary">{t('mapKey.intro')}</Typography.Paragraph>
      <Form
        form={form}
        layout="inline"
        initialValues={{ projectName: 'carhere', devicePlatform: 1, mapType: 'baidu', key: '' }}
        onFinish={(v) => save.mutate({ ...v, key: v.key.trim() })}
        style={{ marginBottom: 16, rowGap: 8 }}
      >
        <Form.Item name="mapType" label={t('mapKey.vendor')}>
          <Select
            style={{ width: 140 }}
            options={MAP_VENDORS.map((v) => ({ value: v, label: t(`vendor.${v}`) }))}
            data-testid="mapkey-vendor"
          />
        </Form.Item>
        <Form.Item name="projectName" label={t('mapKey.project')} rules={[{ required: true, message: t('required') }]}>
          <Input style={{ width: 120 }} maxLength={50} />
        </Form.Item>
        <Form.Item name="devicePlatform" label={t('mapKey.platform')}>
          <InputNumber min={0} max={1000} style={{ width: 80 }} />
        </Form.Item>
        <Form.Item
          name="key"
          label={t('mapKey.key')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        >
          <Input style={{ width: 280 }} maxLength={300} data-testid="mapkey-key" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="mapkey-save">
          {t('save')}
        </Button>
      </Form>
      <Table<MapKeyEntry>
        rowKey={(e) => `${e.projectName}/${e.devicePlatform}/${e.mapType}`}
        size="small"
        loading={keys.isLoading}
        dataSource={keys.data ?? []}
        pagination={false}
        locale={{ emptyText: t('mapKey.empty') }}
        data-testid="mapkey-table"
        columns={[
          { title: t('mapKey.vendor'), key: 'vendor', render: (_, e) => t(`vendor.${e.mapType}`) },
          { title: t('mapKey.project'), dataIndex: 'projectName' },
          { title: t('mapKey.platform'), dataIndex: 'devicePlatform' },
          {
            title: t('mapKey.key'),
            dataIndex: 'key',
            render: (k: string) => <Typography.Text code>{k}</Typography.Text>,
          },
          { title: t('updatedAt'), key: 'updatedAt', render: (_, e) => dayjs(e.updatedAt).format('YYYY-MM-DD HH:mm') },
          {
            title: t('actions'),
            key: 'actions',
            render: (_, e) => (
              <Popconfirm
                title={t('confirmDelete')}
                okText={t('ok')}
                cancelText={t('cancel')}
                onConfirm={() =>
                  remove.mutateAsync({
                    projectName: e.projectName,
                    devicePlatform: e.devicePlatform,
                    mapType: e.mapType,
                  })
                }
              >
                <Button type="link" danger size="small">
                  {t('delete')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Card>
  );
}

function AddressService() {
  const { t } = useTranslation('system');
  const { message } = App.useApp();
  const [form] = Form.useForm<GeocoderSettings>();
  const settings = useQuery({ queryKey: ['geocoder'], queryFn: findGeocoder });
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);
  const provider = Form.useWatch('provider', form);
  const save = useMutation({
    mutationFn: saveGeocoder,
    onSuccess: (s) => {
      form.setFieldsValue(s);
      message.success(t('saved'));
    },
    onError: (err: Error) => message.error(err.message),
  });
  const test = useMutation({
    mutationFn: () => testAddress(DEFAULT_MAP_CENTER.lat, DEFAULT_MAP_CENTER.lon),
    onSuccess: (a) => (a.available ? message.success(a.address) : message.warning(a.message)),
    onError: (err: Error) => message.error(err.message),
  });
  return (
    <Card title={t('geocoder.title')} size="small" loading={settings.isLoading}>
      <Typography.Paragraph type="secondary">{t('geocoder.intro')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => save.mutate(v)} style={{ maxWidth: 720 }}>
        <Form.Item name="provider" label={t('geocoder.provider')}>
          <Select options={GEOCODER_KINDS.map((k) => ({ value: k, label: t(`geocoder.kind.${k}`) }))} />
        </Form.Item>
        {provider !== 'none' && (
          <>
            <Form.Item name="key" label={t('geocoder.key')} extra={t('geocoder.keyHint')}>
              <Input maxLength={300} />
            </Form.Item>
            <Form.Item name="reverseUrl" label={t('geocoder.reverseUrl')} extra={t('geocoder.templateHint')}>
              <Input maxLength={500} placeholder={t('geocoder.defaultUrl')} />
            </Form.Item>
            <Form.Item name="suggestUrl" label={t('geocoder.suggestUrl')}>
              <Input maxLength={500} placeholder={t('geocoder.defaultUrl')} />
            </Form.Item>
          </>
        )}
        <Form.Item name="hongKongUserIds" label={t('geocoder.hongKong')} extra={t('geocoder.hongKongHint')}>
          <Select mode="tags" tokenSeparators={[',', ' ']} open={false} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('save')}
          </Button>
          <Button onClick={() => test.mutate()} loading={test.isPending}>
            {t('geocoder.test')}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
