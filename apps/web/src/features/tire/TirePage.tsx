// /index/tire (main:taiya): tyre pressure of a device and, for users who may monitor, its battery pack detail.
import { Empty, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAuth } from '../../auth/store.ts';
import { DeviceSelect } from '../command/DeviceSelect.tsx';
import { useDeviceOptions } from '../command/devices.ts';
import { useHasFeature } from '../deviceTypes/api.ts';
import { Unsupported } from '../deviceTypes/TypeFeatures.tsx';
import { BatteryCard } from './BatteryCard.tsx';
import { TyreCard } from './TyreCard.tsx';

export default function TirePage() {
  const { t } = useTranslation('tire');
  const auth = useAuth();
  const [params, setParams] = useSearchParams();
  const terminalID = params.get('terminalID') ?? undefined;
  const permissions = auth?.permissions ?? [];
  const mayMonitor = permissions.includes('*:*:*') || permissions.includes('main:monitor');
  // The device's type decides whether it has tyres and a battery (device/deviceConfig; spec §8).
  const model = useDeviceOptions().data?.find((d) => d.terminalID === terminalID)?.deviceProtocol;
  const hasTyres = useHasFeature(model, 'tyres');
  const hasBattery = useHasFeature(model, 'battery');
  return (
    <div style={{ padding: 16 }} data-testid="tire-page">
      <DeviceSelect
        value={terminalID}
        onChange={(v) => setParams(v ? { terminalID: v } : {})}
        style={{ width: 360, marginBottom: 16 }}
        testId="tire-device"
      />
      {terminalID ? (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          {hasTyres ? <TyreCard terminalID={terminalID} /> : <Unsupported testId="tire-unsupported" />}
          {mayMonitor &&
            (hasBattery ? <BatteryCard terminalID={terminalID} /> : <Unsupported testId="battery-unsupported" />)}
        </Space>
      ) : (
        <Empty description={t('selectDevice')} />
      )}
    </div>
  );
}
