// "Browser notifications": registers the push service worker (public/notify-sw.js), subscribes with the server's
// VAPID public key and hands the subscription to the server, so the caller's push rules reach this browser.
import { BellOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pushKey, pushSubscribe } from './api.ts';

const supported = () => typeof navigator !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window;

function bytesOf(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(
    base64url
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(base64url.length / 4) * 4, '='),
  );
  const out = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

export function PushButton() {
  const { t } = useTranslation('notify');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  if (!supported()) return null;
  const enable = async () => {
    setBusy(true);
    try {
      if ((await Notification.requestPermission()) !== 'granted') throw new Error(t('pushDenied'));
      const registration = await navigator.serviceWorker.register('/notify-sw.js');
      const { publicKey } = await pushKey();
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: bytesOf(publicKey),
      });
      const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
      await pushSubscribe({ endpoint: json.endpoint, keys: json.keys });
      message.success(t('pushOn'));
    } catch (err) {
      message.error(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<BellOutlined />} loading={busy} onClick={() => void enable()} data-testid="push-enable">
      {t('pushEnable')}
    </Button>
  );
}
