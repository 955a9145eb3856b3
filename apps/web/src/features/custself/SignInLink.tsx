// The seller's sign-in link for a device's customer (issue 16): POST /api/user/certLink makes
// /loginByCert?imei=…&link=…, shown as a link to copy and a QR code to scan. Whoever opens it chooses the password
// of the device's account and lands on the device; it works once, until it expires.
import { App, Button, InputNumber, QRCode, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';

interface Made {
  terminalId: string;
  path: string;
  expiresAt: string;
}

export function SignInLink({ terminalID }: { terminalID: string }) {
  const { t } = useTranslation('custself');
  const { message } = App.useApp();
  const [days, setDays] = useState(7);
  const [made, setMade] = useState<Made | null>(null);
  const [busy, setBusy] = useState(false);
  const make = async () => {
    setBusy(true);
    try {
      setMade(await api<Made>('/user/certLink', { terminalId: terminalID, days }));
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const url = made ? `${location.origin}${made.path}` : '';
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="sign-in-link">
      <Typography.Paragraph>{t('link.hint', { imei: terminalID })}</Typography.Paragraph>
      <Space>
        <span>{t('link.days')}</span>
        <InputNumber min={1} max={30} value={days} onChange={(v) => setDays(v ?? 7)} data-testid="sign-in-link-days" />
        <Button type="primary" loading={busy} onClick={() => void make()} data-testid="sign-in-link-make">
          {t('link.make')}
        </Button>
      </Space>
      {made && (
        <Space align="start">
          <QRCode value={url} size={140} />
          <Space direction="vertical">
            <Typography.Text copyable={{ text: url }} data-testid="sign-in-link-url" style={{ wordBreak: 'break-all' }}>
              {url}
            </Typography.Text>
            <Typography.Text type="secondary">
              {t('link.expires', { time: dayjs(made.expiresAt).format('YYYY-MM-DD HH:mm') })}
            </Typography.Text>
          </Space>
        </Space>
      )}
    </Space>
  );
}
