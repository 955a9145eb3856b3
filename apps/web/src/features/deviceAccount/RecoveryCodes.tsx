// One-time two-factor recovery codes, shown once (at enrolment or renewal): listed, copyable, downloadable as a
// text file. Each signs in once instead of an authenticator code.
import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

function download(codes: readonly string[]): void {
  const blob = new Blob([`${codes.join('\r\n')}\r\n`], { type: 'text/plain;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = 'carhere-recovery-codes.txt';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  const { t } = useTranslation('harden');
  return (
    <Space direction="vertical" data-testid="recovery-codes" style={{ maxWidth: 520 }}>
      <Alert type="warning" showIcon message={t('recovery.title')} description={t('recovery.hint')} />
      <Typography.Paragraph copyable={{ text: codes.join('\n') }} style={{ marginBottom: 0 }}>
        <span style={{ display: 'grid', gridTemplateColumns: 'repeat(2, max-content)', gap: '4px 24px' }}>
          {codes.map((c) => (
            <Typography.Text code key={c} data-testid="recovery-code">
              {c}
            </Typography.Text>
          ))}
        </span>
      </Typography.Paragraph>
      <Button icon={<DownloadOutlined />} onClick={() => download(codes)} data-testid="recovery-codes-download">
        {t('recovery.download')}
      </Button>
    </Space>
  );
}
