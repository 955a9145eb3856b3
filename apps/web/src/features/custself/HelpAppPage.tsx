// Help → app: the mobile app — its download link (APP_DOWNLOAD_URL) as a link and a QR code, and what it offers.
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, List, QRCode, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import type { PublicConfig } from '../../api/types.ts';
import { useBrand } from './brand.ts';

const FEATURES = ['monitor', 'track', 'alarms', 'commands', 'fences', 'account'] as const;

export default function HelpAppPage() {
  const { t } = useTranslation('custself');
  const config = useQuery({
    queryKey: ['config/public'],
    queryFn: () => api<PublicConfig>('/config/public', undefined, { method: 'GET' }),
  });
  // A brand's own app link comes first (issue 16).
  const brand = useBrand();
  const url = brand?.appUrl || config.data?.appDownloadUrl || '';
  return (
    <div style={{ padding: 16, maxWidth: 880 }} data-testid="help-app">
      <Typography.Title level={4}>{t('app.title')}</Typography.Title>
      <Space align="start" size="large" wrap>
        <Card size="small" style={{ width: 260, textAlign: 'center' }}>
          {url ? (
            <Space direction="vertical" align="center">
              <QRCode value={url} data-testid="app-qr" />
              <Typography.Text type="secondary">{t('app.scan')}</Typography.Text>
              <Button type="primary" href={url} target="_blank" rel="noopener noreferrer" data-testid="app-download">
                {t('app.download')}
              </Button>
            </Space>
          ) : (
            <Alert type="info" showIcon message={t('app.notConfigured')} data-testid="app-not-configured" />
          )}
        </Card>
        <Card size="small" title={t('app.offers')} style={{ width: 520 }}>
          <List dataSource={[...FEATURES]} renderItem={(f) => <List.Item>{t(`app.feature.${f}`)}</List.Item>} />
        </Card>
      </Space>
    </div>
  );
}
