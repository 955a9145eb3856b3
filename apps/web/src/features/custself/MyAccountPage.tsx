// /index/account: "my account" for every role (issue 16) — name, phone, e-mail, language, default map and
// alarm sound, kept on the server so they follow the account, and the password (the current one checked).
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Select, Space, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { authStore } from '../../auth/store.ts';
import { LANGUAGE_NAMES, LANGUAGES, type Language, setLanguage } from '../../i18n/index.ts';
import { mapTypeStore } from '../../map/mapType.ts';
import { MAP_PROVIDERS, MAP_TYPES, type MapType } from '../../map/providers.ts';
import { domainText, requiredRule } from '../agent/formRules.ts';
import { alarmSoundStore } from '../monitor/alarms/alarmSound.ts';
import { changeOwnPassword } from '../user/api.ts';
import { getMe, type Me, updateMe } from './api.ts';

type Profile = Pick<Me, 'nickname' | 'telephone' | 'email' | 'lang' | 'mapType' | 'alarmSound'>;

/** Applies the account's saved preferences to this browser (language, map, alarm sound). */
export function applyPreferences(me: Pick<Me, 'lang' | 'mapType' | 'alarmSound'>): void {
  if ((LANGUAGES as readonly string[]).includes(me.lang)) void setLanguage(me.lang as Language);
  if ((MAP_TYPES as readonly string[]).includes(me.mapType)) mapTypeStore.set(me.mapType as MapType);
  alarmSoundStore.set(me.alarmSound);
}

function PasswordCard() {
  const { t } = useTranslation('user');
  const { t: tc } = useTranslation('custself');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ oldPassword: string; password: string; confirmPassword: string }>();
  const save = async () => {
    const v = await form.validateFields();
    try {
      await changeOwnPassword(v.oldPassword, v.password, v.confirmPassword);
      message.success(t('password.changed'));
      form.resetFields();
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  return (
    <Card size="small" title={tc('account.password')} style={{ maxWidth: 480 }}>
      <Form form={form} layout="vertical" data-testid="account-password">
        <Form.Item name="oldPassword" label={t('password.old')} rules={[requiredRule(t('password.old'))]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('password.new')}
          rules={[requiredRule(t('password.new')), { min: 6, message: t('password.min', { min: 6 }) }]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('password.confirm')}
          dependencies={['password']}
          rules={[
            requiredRule(t('password.confirm')),
            ({ getFieldValue }) => ({
              validator: async (_r, value: string) => {
                if (value && value !== getFieldValue('password')) throw new Error(domainText('validation.confirmed'));
              },
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" onClick={() => void save()} data-testid="account-password-save">
          {tc('account.changePassword')}
        </Button>
      </Form>
    </Card>
  );
}

export default function MyAccountPage() {
  const { t, i18n } = useTranslation('custself');
  const { t: tm } = useTranslation('map');
  const { message } = App.useApp();
  const [form] = Form.useForm<Profile>();
  const me = useQuery({ queryKey: ['me'], queryFn: getMe });

  // The language field shows the language in use here: the stored one is 'cn' for every account that never
  // chose, and saving the other fields must not switch the interface to it.
  useEffect(() => {
    if (me.data) form.setFieldsValue({ ...me.data, lang: i18n.language });
  }, [me.data, form, i18n.language]);

  const save = async () => {
    const v = await form.validateFields();
    try {
      const saved = await updateMe(v);
      applyPreferences(saved);
      const auth = authStore.get();
      if (auth)
        authStore.set({
          ...auth,
          userInfo: { ...auth.userInfo, nickname: saved.nickname, telephone: saved.telephone, lang: saved.lang },
        });
      message.success(t('account.saved'));
      void me.refetch();
    } catch (err) {
      message.error((err as Error).message);
    }
  };

  return (
    <div style={{ padding: 16 }} data-testid="my-account">
      <Typography.Title level={4}>{t('account.title')}</Typography.Title>
      <Space align="start" wrap size="large">
        <Card size="small" title={me.data?.username ?? ''} style={{ width: 420 }}>
          <Form form={form} layout="vertical" data-testid="account-profile">
            <Form.Item name="nickname" label={t('account.nickname')} rules={[{ max: 50 }]}>
              <Input />
            </Form.Item>
            <Form.Item
              name="telephone"
              label={t('account.telephone')}
              rules={[{ pattern: /^[0-9+\-() ]{0,20}$/, message: t('account.badPhone') }]}
            >
              <Input />
            </Form.Item>
            <Form.Item
              name="email"
              label={t('account.email')}
              rules={[{ type: 'email', message: t('account.badEmail') }]}
            >
              <Input />
            </Form.Item>
            <Form.Item name="lang" label={t('account.language')}>
              <Select
                data-testid="account-lang"
                options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
              />
            </Form.Item>
            <Form.Item name="mapType" label={t('account.defaultMap')}>
              <Select
                data-testid="account-map"
                options={[
                  { value: '', label: t('account.siteDefault') },
                  ...MAP_TYPES.map((value) => ({ value, label: tm(MAP_PROVIDERS[value].labelKey) })),
                ]}
              />
            </Form.Item>
            <Form.Item name="alarmSound" label={t('account.alarmSound')} valuePropName="checked">
              <Switch data-testid="account-sound" />
            </Form.Item>
            <Button type="primary" onClick={() => void save()} data-testid="account-save">
              {t('account.save')}
            </Button>
          </Form>
        </Card>
        <PasswordCard />
      </Space>
    </div>
  );
}
