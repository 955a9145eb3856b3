// /index/device/deviceUpdateIccid (batch ICCID update by IMEI) and /index/device/deviceExportIccid (ICCIDs and
// card numbers of an account's devices as xlsx), on the SIM card API (apps/server/src/modules/cards).
import { App, Button, Card, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useAuth } from '../../auth/store.ts';
import { SubNav } from '../agent/SubNav.tsx';
import type { ImportCountsResult } from '../factory/production/api.ts';
import { ImportCounts, RejectedTable } from '../factory/production/ImportPanel.tsx';
import { AccountSelect } from './AccountSelect.tsx';
import { DEVICE_PAGES } from './pages.ts';

type UpdateResult = Pick<ImportCountsResult, 'success' | 'failure' | 'unqualified' | 'rejected'>;

export function DeviceUpdateIccidPage() {
  const { t } = useTranslation('production');
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<UpdateResult | null>(null);
  const submit = async () => {
    if (!text.trim()) {
      message.warning(t('import.empty'));
      return;
    }
    setBusy(true);
    try {
      setResult(await api<UpdateResult>('/device/updateIccid', { text }));
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div style={{ padding: 16 }}>
      <SubNav items={DEVICE_PAGES} />
      <Card size="small" title={t('iccid.updateTitle')}>
        <p>{t('iccid.updateHint')}</p>
        <Input.TextArea rows={10} value={text} onChange={(e) => setText(e.target.value)} data-testid="iccid-text" />
        <Button type="primary" style={{ marginTop: 12 }} onClick={submit} loading={busy} data-testid="iccid-submit">
          {t('action.save')}
        </Button>
        {result && (
          <div style={{ marginTop: 16 }}>
            <ImportCounts result={{ ...result, noFactoryTest: 0, notPreset: 0, alreadyStocked: 0 }} />
            <RejectedTable rows={result.rejected} />
          </div>
        )}
      </Card>
    </div>
  );
}

export function DeviceExportIccidPage() {
  const { t } = useTranslation('production');
  const auth = useAuth();
  const [userId, setUserId] = useState(auth?.userInfo.id ?? '');
  return (
    <div style={{ padding: 16 }}>
      <SubNav items={DEVICE_PAGES} />
      <Card size="small" title={t('iccid.exportTitle')}>
        <p>{t('iccid.exportHint')}</p>
        <Form layout="inline">
          <Form.Item label={t('field.account')}>
            <AccountSelect value={userId} onChange={(v: string) => setUserId(v)} testId="iccid-account" />
          </Form.Item>
          <Button
            type="primary"
            href={`/api/device/exportIccid?userId=${encodeURIComponent(userId)}`}
            data-testid="iccid-export"
          >
            {t('action.exportXlsx')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
