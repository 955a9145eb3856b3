// "Security" section of the user info screen: turn two-factor sign-in on (QR code of the otpauth:// URI,
// confirmed by a first code) or off (needs a current code).
import { App, Button, Card, Input, QRCode, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { authStore, useAuth } from '../../auth/store.ts';
import { RecoveryCodes } from '../deviceAccount/RecoveryCodes.tsx';
import { currentSession, totpDisable, totpEnable, totpRecoveryCodes, totpSetup } from './api.ts';

export function TotpEnrol({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('security');
  const { t: th } = useTranslation('harden');
  const { message, modal } = App.useApp();
  const [setup, setSetup] = useState<{ secret: string; uri: string } | null>(null);
  const [code, setCode] = useState('');
  const start = async () => {
    try {
      setSetup(await totpSetup());
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  const confirm = async () => {
    try {
      const { recoveryCodes } = await totpEnable(code.trim());
      message.success(t('totp.enabled'));
      setSetup(null);
      setCode('');
      // The recovery codes are shown this once, in a dialog that stays open while the page moves on.
      modal.info({
        width: 560,
        title: th('recovery.title'),
        content: <RecoveryCodes codes={recoveryCodes} />,
        okText: th('recovery.saved'),
        okButtonProps: { 'data-testid': 'recovery-codes-ok' } as Record<string, string>,
      });
      onDone();
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  if (!setup) {
    return (
      <Button type="primary" onClick={() => void start()} data-testid="totp-start">
        {t('totp.enable')}
      </Button>
    );
  }
  return (
    <Space direction="vertical" data-testid="totp-setup">
      <Typography.Text>{t('totp.scan')}</Typography.Text>
      <QRCode value={setup.uri} data-testid="totp-qr" />
      <Typography.Text code copyable data-testid="totp-secret">
        {setup.secret}
      </Typography.Text>
      <Space>
        <Input
          value={code}
          onChange={(e) => setCode(e.target.value)}
          placeholder={t('totp.code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          style={{ width: 140 }}
          data-testid="totp-code"
        />
        <Button type="primary" onClick={() => void confirm()} data-testid="totp-confirm">
          {t('totp.confirm')}
        </Button>
      </Space>
    </Space>
  );
}

/** Reads the session again (its two-factor state and restriction) into the store. */
export async function refreshSession(): Promise<void> {
  const fresh = await currentSession();
  authStore.set(fresh);
}

export function TotpCard() {
  const { t } = useTranslation('security');
  const { t: th } = useTranslation('harden');
  const { message, modal } = App.useApp();
  const auth = useAuth();
  const [code, setCode] = useState('');
  const on = auth?.totpEnabled === true;
  const disable = async () => {
    try {
      await totpDisable(code.trim());
      setCode('');
      message.success(t('totp.disabled'));
      await refreshSession();
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  const renew = async () => {
    try {
      const { recoveryCodes } = await totpRecoveryCodes(code.trim());
      setCode('');
      modal.info({
        width: 560,
        title: th('recovery.title'),
        content: <RecoveryCodes codes={recoveryCodes} />,
        okText: th('recovery.saved'),
      });
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  return (
    <Card size="small" title={t('totp.title')} style={{ maxWidth: 720, marginTop: 16 }} data-testid="security-card">
      <Space direction="vertical">
        <Space>
          <Tag color={on ? 'green' : 'default'} data-testid="totp-state">
            {on ? t('totp.on') : t('totp.off')}
          </Tag>
        </Space>
        {on ? (
          <Space>
            <Input
              value={code}
              onChange={(e) => setCode(e.target.value)}
              placeholder={th('recovery.codeOrRecovery')}
              maxLength={19}
              style={{ width: 220 }}
              data-testid="totp-disable-code"
            />
            <Button danger onClick={() => void disable()} data-testid="totp-disable">
              {t('totp.disable')}
            </Button>
            <Button onClick={() => void renew()} data-testid="totp-renew-recovery">
              {th('recovery.renew')}
            </Button>
          </Space>
        ) : (
          <TotpEnrol onDone={() => void refreshSession()} />
        )}
      </Space>
    </Card>
  );
}
