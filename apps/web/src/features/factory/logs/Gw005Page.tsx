// /test/search (GW005 test): one page per IMEI for a line worker — registered, connected now, last login,
// firmware, last position and signal, battery, QC result, SIM card.
import { App as AntApp, Button, Descriptions, Input, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Gw005, gw005, when } from './api.ts';

export default function Gw005Page() {
  const { t } = useTranslation(['factoryLogs', 'production']);
  const { message } = AntApp.useApp();
  const [imei, setImei] = useState('');
  const [d, setD] = useState<Gw005 | null>(null);
  const yes = (b: boolean) => <Tag color={b ? 'green' : 'red'}>{b ? t('yes') : t('no')}</Tag>;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="gw005-page">
      <Space>
        <Input
          placeholder="IMEI"
          value={imei}
          onChange={(e) => setImei(e.target.value)}
          onPressEnter={() => document.getElementById('gw005-search')?.click()}
          style={{ width: 220 }}
          data-testid="gw005-imei"
        />
        <Button
          id="gw005-search"
          type="primary"
          data-testid="gw005-search"
          onClick={async () => {
            try {
              setD(await gw005(imei.trim()));
            } catch (err) {
              message.error((err as Error).message);
            }
          }}
        >
          {t('search')}
        </Button>
      </Space>
      {d && (
        <Descriptions bordered size="small" column={2} data-testid="gw005-result">
          <Descriptions.Item label={t('registered')}>
            <span data-testid="gw005-registered">{yes(d.registered)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('online')}>
            <span data-testid="gw005-online">{yes(d.online)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('lastLogin')}>
            {d.lastLogin ? `${when(d.lastLogin.time)} · ${d.lastLogin.remote}` : '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('lastSeen')}>{when(d.lastSeen) || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('firmware')}>{d.firmware ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('signal')}>{d.signal ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('position')}>
            <span data-testid="gw005-position">
              {d.position
                ? `${d.position.lat.toFixed(6)}, ${d.position.lon.toFixed(6)} · ${when(d.position.time)} · ${t('satellites')} ${d.position.satellites ?? '—'}`
                : '—'}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('battery')}>{d.battery ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('qc')}>
            <span data-testid="gw005-qc">
              {d.qc
                ? [
                    d.qc.pass ? t('production:qc.pass') : t('production:qc.fail'),
                    when(d.qc.testedAt),
                    d.qc.model,
                    d.qc.firmware ?? '',
                    d.qc.failures.join(', '),
                  ]
                    .filter((v) => v !== '')
                    .join(' · ')
                : t('noQc')}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('card')}>
            {d.card
              ? [`ICCID ${d.card.iccid}`, d.card.msisdn, d.card.operator, d.card.state, d.card.expiresOn ?? '']
                  .filter((v) => v !== '')
                  .join(' · ')
              : d.iccid
                ? `ICCID ${d.iccid}`
                : t('noCard')}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Space>
  );
}
