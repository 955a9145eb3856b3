// What the screens outside this folder show from a device's type: the monitor popup's tyre button (only for
// a type with tyres), and the spec §8 notice where a screen's feature is missing from the device's type.
import { DashboardOutlined } from '@ant-design/icons';
import { translate } from '@carhere/domain';
import { Alert, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAuth } from '../../auth/store.ts';
import { useHasFeature } from './api.ts';

export function tirePath(terminalID: string): string {
  return `/index/tire?terminalID=${encodeURIComponent(terminalID)}`;
}

/** The popup's tyre button: shown when the device's type has tyres and the user may open the tyre screen. */
export function PopupTyreAction({ device }: { device: { terminalID: string; deviceProtocol: number } }) {
  const { t } = useTranslation('deviceTypes');
  const navigate = useNavigate();
  const auth = useAuth();
  const hasTyres = useHasFeature(device.deviceProtocol, 'tyres');
  const permissions = auth?.permissions ?? [];
  if (!hasTyres || !(permissions.includes('*:*:*') || permissions.includes('main:taiya'))) return null;
  return (
    <Tooltip title={t('feature.tyres')}>
      <Button
        size="small"
        icon={<DashboardOutlined />}
        aria-label={t('feature.tyres')}
        data-testid="popup-tyres"
        onClick={() => navigate(tirePath(device.terminalID))}
      />
    </Tooltip>
  );
}

/** 'The device does not support this feature!' in place of a screen part the device's type lacks. */
export function Unsupported({ testId }: { testId: string }) {
  const { i18n } = useTranslation();
  return <Alert type="info" showIcon message={translate('device.unsupported', i18n.language)} data-testid={testId} />;
}
