// The device list's device-account actions: new random passwords for the device accounts of the chosen devices
// (shown once in a result that can be downloaded; each account changes its password at first sign-in), and the
// username change of a device's account. The server checks permission and subtree for both.
import { Alert, App, Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SignInLink } from '../custself/SignInLink.tsx';
import { PasswordsResult } from '../security/PasswordsResult.tsx';
import { type DevicePasswordsResult, renameDeviceAccount, resetDeviceAccountPasswords } from './api.ts';

export type DeviceAccountAction = 'devicePassword' | 'deviceUsername' | 'signInLink';

/** Which device-account actions the permissions open (hiding is convenience; the server decides). */
export const DEVICE_ACCOUNT_ACTIONS: { kind: DeviceAccountAction; needs: string[]; label: string }[] = [
  { kind: 'devicePassword', needs: ['main:device_reset_password'], label: 'harden:devicePassword.action' },
  { kind: 'deviceUsername', needs: ['main:device_username'], label: 'harden:deviceUsername.action' },
  // The seller's sign-in link for the customer (issue 16, /loginByCert with a link).
  { kind: 'signInLink', needs: ['main:device_reset_password'], label: 'custself:link.action' },
];

function PasswordReset({ terminalIDs }: { terminalIDs: string[] }) {
  const { t } = useTranslation('harden');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<DevicePasswordsResult | null>(null);
  const start = async () => {
    setBusy(true);
    try {
      setResult(await resetDeviceAccountPasswords(terminalIDs));
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  if (!result) {
    return (
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph>{t('devicePassword.confirm', { count: terminalIDs.length })}</Typography.Paragraph>
        <Button type="primary" danger loading={busy} onClick={() => void start()} data-testid="device-password-ok">
          {t('devicePassword.run')}
        </Button>
      </Space>
    );
  }
  return (
    <div data-testid="device-password-result">
      <Typography.Paragraph>{t('devicePassword.done', { count: result.updated.length })}</Typography.Paragraph>
      {result.notFound.length > 0 && (
        <Alert
          type="info"
          showIcon
          message={t('devicePassword.notFound', { list: result.notFound.join(', ') })}
          data-testid="device-password-not-found"
        />
      )}
      <PasswordsResult rows={result.passwords.map((p) => ({ account: p.terminalId, password: p.password }))} />
    </div>
  );
}

function UsernameChange({ terminalID, onDone }: { terminalID: string; onDone: () => void }) {
  const { t } = useTranslation('harden');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ username: string }>();
  const save = async () => {
    const v = await form.validateFields();
    try {
      const r = await renameDeviceAccount(terminalID, v.username.trim());
      message.success(t('deviceUsername.done', { from: r.from, to: r.to }));
      onDone();
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  return (
    <Form form={form} layout="vertical" onFinish={() => void save()}>
      <Typography.Paragraph>{t('deviceUsername.hint', { imei: terminalID })}</Typography.Paragraph>
      <Form.Item
        name="username"
        label={t('deviceUsername.new')}
        rules={[{ required: true, whitespace: true, max: 50, message: t('deviceUsername.required') }]}
      >
        <Input autoComplete="off" maxLength={50} data-testid="device-username-input" />
      </Form.Item>
      <Button type="primary" htmlType="submit" data-testid="device-username-ok">
        {t('deviceUsername.save')}
      </Button>
    </Form>
  );
}

export function DeviceAccountDialog({
  kind,
  terminalIDs,
  onClose,
}: {
  kind: DeviceAccountAction;
  terminalIDs: string[];
  onClose: () => void;
}) {
  const { t } = useTranslation(['harden', 'custself']);
  const title = kind === 'signInLink' ? t('custself:link.title') : t(`${kind}.title`);
  return (
    <Modal open footer={null} width={560} title={title} onCancel={onClose} destroyOnHidden>
      {kind === 'devicePassword' ? (
        <PasswordReset terminalIDs={terminalIDs} />
      ) : kind === 'signInLink' ? (
        <SignInLink terminalID={terminalIDs[0]} />
      ) : (
        <UsernameChange terminalID={terminalIDs[0]} onDone={onClose} />
      )}
    </Modal>
  );
}
