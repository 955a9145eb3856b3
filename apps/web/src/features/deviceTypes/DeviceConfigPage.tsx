// /index/device/deviceConfig (main:devices_config, admin by spec §6): device types as data — per model code its
// protocol, icon, features and command menus (the type's own and per protocol type). Saved with
// /api/deviceType/addOrUpdate; the command screen, the monitor popup and the tyre/battery screen read them.
import { PlusOutlined } from '@ant-design/icons';
import {
  DEVICE_FEATURES,
  type DeviceTypeConfig,
  type DeviceTypeMenuGroup,
  ICON_TYPES,
  labelIn,
  MENU_COMMANDS,
  PROTOCOL_TYPES,
  seedDeviceType,
} from '@carhere/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Drawer, Input, InputNumber, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEVICE_TYPES_KEY, findAllDeviceTypes, type StoredDeviceType, saveDeviceType } from './api.ts';
import { MenuEditor } from './MenuEditor.tsx';

/** Which menu the editor shows: the type's own, or its menu for devices on protocol type 1, 3 or 4. */
type MenuKey = 'own' | '1' | '3' | '4';

export default function DeviceConfigPage() {
  const { t, i18n } = useTranslation('deviceTypes');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [keyword, setKeyword] = useState('');
  const [draft, setDraft] = useState<DeviceTypeConfig | null>(null);
  const [isNew, setIsNew] = useState(false);
  const [menuKey, setMenuKey] = useState<MenuKey>('own');
  const types = useQuery({ queryKey: DEVICE_TYPES_KEY, queryFn: ({ signal }) => findAllDeviceTypes(signal) });
  const save = useMutation({
    mutationFn: saveDeviceType,
    onSuccess: () => {
      message.success(t('saved'));
      setDraft(null);
      void queryClient.invalidateQueries({ queryKey: DEVICE_TYPES_KEY });
    },
    onError: (err: Error) => message.error(err.message),
  });

  const q = keyword.trim().toLowerCase();
  const rows = (types.data ?? []).filter((r) => !q || r.name.toLowerCase().includes(q) || String(r.deviceType) === q);
  const protocolName = (code: number) => {
    const p = PROTOCOL_TYPES.find((x) => x.code === code);
    return p ? labelIn(p, i18n.language) : String(code);
  };

  const open = (type: DeviceTypeConfig, created: boolean) => {
    const { deviceType, name, protocolType, iconType, features, menu, protocolMenus } = type;
    setDraft({ deviceType, name, protocolType, iconType, features, menu, protocolMenus });
    setIsNew(created);
    setMenuKey('own');
  };

  const menuOf = (d: DeviceTypeConfig): readonly DeviceTypeMenuGroup[] | undefined =>
    menuKey === 'own' ? d.menu : d.protocolMenus[menuKey];
  const setMenu = (menu: readonly DeviceTypeMenuGroup[] | undefined) => {
    if (!draft) return;
    if (menuKey === 'own') return setDraft({ ...draft, menu: menu ?? [] });
    const protocolMenus = { ...draft.protocolMenus };
    if (menu === undefined) delete protocolMenus[menuKey];
    else protocolMenus[menuKey] = menu;
    setDraft({ ...draft, protocolMenus });
  };

  return (
    <div style={{ padding: 16 }} data-testid="device-config-page">
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          allowClear
          placeholder={t('search')}
          onSearch={setKeyword}
          onChange={(e) => setKeyword(e.target.value)}
          style={{ width: 260 }}
        />
        <Button
          icon={<PlusOutlined />}
          data-testid="devtype-add"
          onClick={() => {
            const used = new Set((types.data ?? []).map((r) => r.deviceType));
            let code = 100;
            while (used.has(code)) code++;
            open({ ...seedDeviceType(code), name: '' }, true);
          }}
        >
          {t('add')}
        </Button>
      </Space>
      <Table<StoredDeviceType>
        rowKey="deviceType"
        size="small"
        loading={types.isLoading}
        dataSource={rows}
        pagination={{ pageSize: 20 }}
        data-testid="devtype-table"
        columns={[
          { title: t('code'), dataIndex: 'deviceType', width: 80 },
          { title: t('name'), dataIndex: 'name' },
          { title: t('protocol'), dataIndex: 'protocolType', render: protocolName },
          { title: t('icon'), dataIndex: 'iconType', width: 70 },
          {
            title: t('features'),
            key: 'features',
            render: (_, r) => (
              <Space size={2} wrap>
                {DEVICE_FEATURES.map((f) => (
                  <Tag key={f} color={r.features[f] ? 'green' : 'default'}>
                    {t(`feature.${f}`)}
                  </Tag>
                ))}
              </Space>
            ),
          },
          {
            title: t('menu'),
            key: 'menu',
            render: (_, r) =>
              t('menuSize', { groups: r.menu.length, commands: r.menu.flatMap((g) => g.commands).length }),
          },
          {
            title: t('state'),
            key: 'edited',
            render: (_, r) => (r.edited ? <Tag color="blue">{t('edited')}</Tag> : <Tag>{t('seeded')}</Tag>),
          },
          {
            title: t('actions'),
            key: 'actions',
            render: (_, r) => (
              <Button
                type="link"
                size="small"
                onClick={() => open(r, false)}
                data-testid={`devtype-edit-${r.deviceType}`}
              >
                {t('edit')}
              </Button>
            ),
          },
        ]}
      />
      <Drawer
        open={draft !== null}
        onClose={() => setDraft(null)}
        width={720}
        title={draft ? `${t(isNew ? 'add' : 'edit')} ${draft.name || draft.deviceType}` : ''}
        destroyOnHidden
        extra={
          <Button
            type="primary"
            loading={save.isPending}
            disabled={!draft || draft.name.trim() === ''}
            onClick={() => draft && save.mutate(draft)}
            data-testid="devtype-save"
          >
            {t('save')}
          </Button>
        }
      >
        {draft && (
          <Space direction="vertical" style={{ width: '100%' }} size="middle">
            <Space wrap>
              <Field label={t('code')}>
                <InputNumber
                  min={0}
                  max={9999}
                  value={draft.deviceType}
                  disabled={!isNew}
                  onChange={(v) => setDraft({ ...draft, deviceType: Number(v ?? 0) })}
                />
              </Field>
              <Field label={t('name')}>
                <Input
                  value={draft.name}
                  maxLength={32}
                  onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                  data-testid="devtype-name"
                />
              </Field>
              <Field label={t('protocol')}>
                <Select
                  style={{ width: 160 }}
                  value={draft.protocolType}
                  onChange={(v) => setDraft({ ...draft, protocolType: v })}
                  options={PROTOCOL_TYPES.map((p) => ({ value: p.code, label: labelIn(p, i18n.language) }))}
                />
              </Field>
              <Field label={t('icon')}>
                <Select
                  style={{ width: 80 }}
                  value={draft.iconType}
                  onChange={(v) => setDraft({ ...draft, iconType: v })}
                  options={ICON_TYPES.map((n) => ({ value: n, label: n }))}
                />
              </Field>
            </Space>
            <Field label={t('features')}>
              <Space wrap>
                {DEVICE_FEATURES.map((f) => (
                  <Checkbox
                    key={f}
                    checked={draft.features[f]}
                    data-testid={`devtype-feature-${f}`}
                    onChange={(e) => setDraft({ ...draft, features: { ...draft.features, [f]: e.target.checked } })}
                  >
                    {t(`feature.${f}`)}
                  </Checkbox>
                ))}
              </Space>
            </Field>
            <Card
              size="small"
              title={t('menu')}
              extra={
                <Select<MenuKey>
                  style={{ width: 260 }}
                  value={menuKey}
                  onChange={setMenuKey}
                  data-testid="devtype-menu-for"
                  options={[
                    { value: 'own', label: t('menuOwn') },
                    ...(['1', '3', '4'] as const).map((k) => ({
                      value: k,
                      label: t('menuFor', { protocol: protocolName(Number(k)) }),
                    })),
                  ]}
                />
              }
            >
              {menuKey !== 'own' && (
                <Checkbox
                  style={{ marginBottom: 8 }}
                  checked={menuOf(draft) === undefined}
                  onChange={(e) => setMenu(e.target.checked ? undefined : [...draft.menu])}
                >
                  {t('sameAsOwn')}
                </Checkbox>
              )}
              {menuOf(draft) !== undefined && <MenuEditor menu={menuOf(draft) ?? []} onChange={setMenu} />}
            </Card>
            <Typography.Text type="secondary">{t('commandsCount', { count: MENU_COMMANDS.length })}</Typography.Text>
          </Space>
        )}
      </Drawer>
    </div>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 4 }}>
        {label}
      </Typography.Text>
      {children}
    </div>
  );
}
