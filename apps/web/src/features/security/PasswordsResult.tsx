// New passwords made by a reset, an import or a sale: shown once, each copyable, all downloadable as CSV.
import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { downloadPasswords, type IssuedPassword } from './passwordsCsv.ts';

export function PasswordsResult({ rows }: { rows: readonly IssuedPassword[] }) {
  const { t } = useTranslation('security');
  if (rows.length === 0) return null;
  const header: [string, string] = [t('passwords.account'), t('passwords.password')];
  return (
    <div data-testid="issued-passwords" style={{ marginTop: 12 }}>
      <Alert type="warning" showIcon message={t('passwords.hint')} style={{ marginBottom: 8 }} />
      <Table
        size="small"
        rowKey="account"
        pagination={false}
        scroll={{ y: 240 }}
        dataSource={[...rows]}
        columns={[
          { title: header[0], dataIndex: 'account' },
          {
            title: header[1],
            dataIndex: 'password',
            render: (p: string) => (
              <Typography.Text code copyable data-testid="issued-password">
                {p}
              </Typography.Text>
            ),
          },
        ]}
      />
      <Button
        icon={<DownloadOutlined />}
        style={{ marginTop: 8 }}
        onClick={() => downloadPasswords(rows, header, `passwords-${dayjs().format('YYYYMMDD-HHmmss')}.csv`)}
        data-testid="issued-passwords-download"
      >
        {t('passwords.download')}
      </Button>
    </div>
  );
}
