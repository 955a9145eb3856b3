// /test/setting/subscribe: the NB-IoT / CCS platform settings. Secrets are write-only (shown as set or not); a
// field the server's environment holds is shown read-only with its variable's name; "test connection" tries the
// platform with the saved settings.
import { Alert, App, Button, Card, Form, Input, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { findSubscribe, type SubscribeView, saveSubscribe, testSubscribe } from './otaApi.ts';

const TEXT_FIELDS = ['commandUrl', 'authUrl', 'appId', 'serviceId', 'method', 'paraName', 'callbackUrl'] as const;
const SECRET_FIELDS = ['callbackToken', 'appSecret', 'accessToken'] as const;

export default function SubscribePage() {
  const { t } = useTranslation('factoryOta');
  const { message } = App.useApp();
  const [view, setView] = useState<SubscribeView | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [notifyTypes, setNotifyTypes] = useState<string[]>([]);
  const [result, setResult] = useState<{ ok: boolean; detail: string } | null>(null);
  const fail = (e: Error) => message.error(e.message);
  const show = (v: SubscribeView) => {
    setView(v);
    setValues({ encoding: '', ...v.values });
    setSecrets({});
    setNotifyTypes(v.notifyTypes);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: first load only
  useEffect(() => {
    findSubscribe().then(show).catch(fail);
  }, []);
  if (!view) return null;
  const held = (name: string) => view.fromEnv.includes(name);
  const save = async () => {
    const body: Record<string, unknown> = {};
    for (const f of TEXT_FIELDS) if (!held(f)) body[f] = (values[f] ?? '').trim();
    if (!held('encoding')) body.encoding = values.encoding ?? '';
    for (const f of SECRET_FIELDS) if (!held(f) && secrets[f]) body[f] = secrets[f];
    if (!held('notifyTypes')) body.notifyTypes = notifyTypes;
    show(await saveSubscribe(body));
    message.success(t('sub.saved'));
  };
  const clearSecret = async (name: string) => show(await saveSubscribe({ [name]: null }));
  const envTag = (name: string) => (held(name) ? <Tag color="blue">{t('sub.fromEnv')}</Tag> : null);
  return (
    <Space direction="vertical" style={{ width: '100%', maxWidth: 820 }} data-testid="subscribe-page">
      <Alert type="info" showIcon message={t('sub.envWins')} />
      <Card title={t('sub.title')}>
        <Form layout="vertical">
          {TEXT_FIELDS.map((f) => (
            <Form.Item
              key={f}
              label={
                <Space>
                  {t(`sub.field.${f}`)}
                  {envTag(f)}
                </Space>
              }
            >
              <Input
                value={values[f] ?? ''}
                disabled={held(f)}
                onChange={(e) => setValues({ ...values, [f]: e.target.value })}
                data-testid={`sub-${f}`}
              />
            </Form.Item>
          ))}
          <Form.Item
            label={
              <Space>
                {t('sub.field.encoding')}
                {envTag('encoding')}
              </Space>
            }
          >
            <Select
              style={{ width: 200 }}
              disabled={held('encoding')}
              value={values.encoding ?? ''}
              onChange={(v) => setValues({ ...values, encoding: v })}
              options={[
                { value: '', label: t('sub.default') },
                { value: 'frame', label: 'frame' },
                { value: 'text', label: 'text' },
              ]}
            />
          </Form.Item>
          {SECRET_FIELDS.map((f) => (
            <Form.Item
              key={f}
              label={
                <Space>
                  {t(`sub.field.${f}`)}
                  {envTag(f)}
                </Space>
              }
            >
              <Space>
                <Input.Password
                  style={{ width: 360 }}
                  disabled={held(f)}
                  autoComplete="new-password"
                  placeholder={view.secrets[f] ? t('sub.secretSet') : t('sub.secretUnset')}
                  value={secrets[f] ?? ''}
                  onChange={(e) => setSecrets({ ...secrets, [f]: e.target.value })}
                  data-testid={`sub-${f}`}
                />
                <Tag
                  data-testid={`sub-${f}-state`}
                  data-set={String(view.secrets[f])}
                  color={view.secrets[f] ? 'green' : 'default'}
                >
                  {view.secrets[f] ? t('sub.set') : t('sub.unset')}
                </Tag>
                {view.secrets[f] && !held(f) && (
                  <Button size="small" onClick={() => void clearSecret(f).catch(fail)}>
                    {t('sub.clear')}
                  </Button>
                )}
              </Space>
            </Form.Item>
          ))}
          <Form.Item
            label={
              <Space>
                {t('sub.field.notifyTypes')}
                {envTag('notifyTypes')}
              </Space>
            }
          >
            <Select
              mode="tags"
              disabled={held('notifyTypes')}
              value={notifyTypes}
              onChange={setNotifyTypes}
              data-testid="sub-notifyTypes"
              options={view.defaultNotifyTypes.map((n) => ({ value: n, label: n }))}
            />
          </Form.Item>
          <Typography.Paragraph type="secondary">
            {t('sub.callbacks')}{' '}
            {view.callbacks.map((c) => (
              <Typography.Text key={c} code copyable={{ text: `${window.location.origin}${c}` }}>
                {c}
              </Typography.Text>
            ))}
          </Typography.Paragraph>
          <Space>
            <Button type="primary" onClick={() => void save().catch(fail)} data-testid="sub-save">
              {t('sub.save')}
            </Button>
            <Button onClick={() => void testSubscribe().then(setResult).catch(fail)} data-testid="sub-test">
              {t('sub.test')}
            </Button>
          </Space>
          {result && (
            <Alert
              style={{ marginTop: 16 }}
              data-testid="sub-test-result"
              data-ok={String(result.ok)}
              type={result.ok ? 'success' : 'error'}
              message={result.ok ? t('sub.testOk') : t('sub.testFailed')}
              description={result.detail}
            />
          )}
        </Form>
      </Card>
    </Space>
  );
}
