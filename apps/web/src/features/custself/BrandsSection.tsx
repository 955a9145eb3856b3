// The administrator's brands (issue 16, per-brand login pages), on the special-brand page: each brand's login
// address /b/<key> (or its own host name) shows its name, logo, title and colours, its app link, and starts in
// its language and map for users who have not chosen theirs; the signed-in layout keeps its header.
import { App, Button, Form, Input, Modal, Popconfirm, Select, Space, Table, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../i18n/index.ts';
import { MAP_PROVIDERS, MAP_TYPES } from '../../map/providers.ts';
import type { Brand } from './brand.ts';

type BrandForm = Omit<Brand, 'id'> & { id?: string };

const EMPTY: BrandForm = {
  key: '',
  host: '',
  name: '',
  title: '',
  logo: '',
  primaryColor: '#1677ff',
  headerColor: '#001529',
  appUrl: '',
  defaultLang: '',
  defaultMap: '',
};

const MAX_LOGO_BYTES = 140_000;

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

export function BrandsSection() {
  const { t } = useTranslation('custself');
  const { t: tm } = useTranslation('map');
  const { message } = App.useApp();
  const [brands, setBrands] = useState<Brand[]>([]);
  const [editing, setEditing] = useState<BrandForm | null>(null);
  const [form] = Form.useForm<BrandForm>();
  const logo = Form.useWatch('logo', form);

  const [loading, setLoading] = useState(true);
  const reload = useCallback(() => {
    setLoading(true);
    api<Brand[]>('/brand/list', {})
      .then(setBrands, (err: Error) => message.error(err.message))
      .finally(() => setLoading(false));
  }, [message]);
  useEffect(reload, [reload]);

  const open = (b: BrandForm) => {
    setEditing(b);
    form.setFieldsValue({ ...EMPTY, ...b });
  };
  const save = async () => {
    const values = await form.validateFields();
    try {
      await api<Brand>('/brand/save', { ...values, ...(editing?.id ? { id: editing.id } : {}) });
      message.success(t('brand.saved'));
      setEditing(null);
      reload();
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  const remove = async (id: string) => {
    try {
      await api('/brand/delete', { id });
      reload();
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  const pickLogo = async (file: File | undefined) => {
    if (!file) return;
    if (!/^image\/(png|jpeg|webp|gif)$/.test(file.type) || file.size > MAX_LOGO_BYTES) {
      message.error(t('brand.logoHint'));
      return;
    }
    form.setFieldValue('logo', await readDataUrl(file));
  };

  return (
    <div style={{ marginTop: 32 }} data-testid="brands-section">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('brand.title')}
        </Typography.Title>
        <Button type="primary" onClick={() => open(EMPTY)} data-testid="brand-add">
          {t('brand.add')}
        </Button>
      </Space>
      <Typography.Paragraph type="secondary">{t('brand.rule')}</Typography.Paragraph>
      <Table<Brand>
        loading={loading}
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={brands}
        locale={{ emptyText: t('brand.none') }}
        columns={[
          {
            title: t('brand.name'),
            dataIndex: 'name',
            render: (name: string, b) => (
              <Space>
                {b.logo && <img src={b.logo} alt="" style={{ height: 20 }} />}
                <span style={{ color: b.primaryColor }}>{name}</span>
              </Space>
            ),
          },
          {
            title: t('brand.address'),
            dataIndex: 'key',
            render: (key: string, b) => (
              <Space direction="vertical" size={0}>
                <Typography.Text copyable>{`${location.origin}/b/${key}`}</Typography.Text>
                {b.host && <Typography.Text type="secondary">{b.host}</Typography.Text>}
              </Space>
            ),
          },
          {
            title: t('brand.defaultLang'),
            dataIndex: 'defaultLang',
            render: (l: string) => LANGUAGE_NAMES[l as Language] ?? t('brand.siteDefault'),
          },
          {
            key: 'actions',
            render: (_, b) => (
              <Space>
                <Button type="link" onClick={() => open(b)} data-testid={`brand-edit-${b.key}`}>
                  {t('brand.edit')}
                </Button>
                <Popconfirm title={t('brand.confirmDelete')} onConfirm={() => void remove(b.id)}>
                  <Button type="link" danger data-testid={`brand-delete-${b.key}`}>
                    {t('brand.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={editing?.id ? t('brand.edit') : t('brand.add')}
        onCancel={() => setEditing(null)}
        onOk={() => void save()}
        okButtonProps={{ 'data-testid': 'brand-save' } as Record<string, string>}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" data-testid="brand-form">
          <Form.Item
            name="key"
            label={t('brand.key')}
            extra={t('brand.keyHint')}
            rules={[{ required: true, pattern: /^[a-z0-9][a-z0-9-]{1,31}$/ }]}
          >
            <Input addonBefore="/b/" />
          </Form.Item>
          <Form.Item name="host" label={t('brand.host')}>
            <Input placeholder="track.example.com" />
          </Form.Item>
          <Form.Item name="name" label={t('brand.name')} rules={[{ required: true, max: 50 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="title" label={t('brand.loginTitle')} rules={[{ max: 100 }]}>
            <Input />
          </Form.Item>
          <Form.Item label={t('brand.logo')} extra={t('brand.logoHint')}>
            <Space>
              {logo && <img src={logo} alt="" style={{ height: 40 }} data-testid="brand-logo-preview" />}
              <input
                type="file"
                accept="image/png,image/jpeg,image/webp,image/gif"
                onChange={(e) => void pickLogo(e.target.files?.[0])}
                data-testid="brand-logo-file"
              />
              {logo && (
                <Button size="small" onClick={() => form.setFieldValue('logo', '')}>
                  {t('brand.delete')}
                </Button>
              )}
            </Space>
          </Form.Item>
          <Form.Item name="logo" hidden>
            <Input />
          </Form.Item>
          <Space>
            <Form.Item name="primaryColor" label={t('brand.primaryColor')} rules={[{ pattern: /^#[0-9a-fA-F]{6}$/ }]}>
              <Input type="color" style={{ width: 80 }} data-testid="brand-primary" />
            </Form.Item>
            <Form.Item name="headerColor" label={t('brand.headerColor')} rules={[{ pattern: /^#[0-9a-fA-F]{6}$/ }]}>
              <Input type="color" style={{ width: 80 }} data-testid="brand-header" />
            </Form.Item>
          </Space>
          <Form.Item name="appUrl" label={t('brand.appUrl')} rules={[{ pattern: /^https?:\/\/\S+$/, max: 500 }]}>
            <Input placeholder="https://" />
          </Form.Item>
          <Space>
            <Form.Item name="defaultLang" label={t('brand.defaultLang')}>
              <Select
                style={{ width: 180 }}
                data-testid="brand-lang"
                options={[
                  { value: '', label: t('brand.siteDefault') },
                  ...LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] })),
                ]}
              />
            </Form.Item>
            <Form.Item name="defaultMap" label={t('brand.defaultMap')}>
              <Select
                style={{ width: 180 }}
                data-testid="brand-map"
                options={[
                  { value: '', label: t('brand.siteDefault') },
                  ...MAP_TYPES.map((m) => ({ value: m, label: tm(MAP_PROVIDERS[m].labelKey) })),
                ]}
              />
            </Form.Item>
          </Space>
        </Form>
      </Modal>
    </div>
  );
}
