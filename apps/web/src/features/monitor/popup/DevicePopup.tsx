// The popup of the selected device: its details and actions (street view where the provider has it, fence,
// command, track playback, device info, follow). Each action passes the access check first (./access.ts):
// an inactive or expired device gets the spec's message instead of the feature; device info stays open.
import {
  AimOutlined,
  EnvironmentOutlined,
  InfoCircleOutlined,
  NodeIndexOutlined,
  SendOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { Button, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MapPopup } from '../../../map/layers/MapPopup.tsx';
import { useMapProvider } from '../../../map/mapContext.ts';
import { PopupTyreAction } from '../../deviceTypes/TypeFeatures.tsx';
import type { MonitorSession } from '../monitorSession.ts';
import { useDeviceAccess } from '../useDeviceAccess.ts';
import { useStoreVersion } from '../useMonitorSession.ts';
import { DeviceDetails } from './DeviceDetails.tsx';
import { commandPath, fencePath, streetViewUrl, trackPath } from './deviceActions.ts';

export interface DevicePopupProps {
  session: MonitorSession;
  deviceId: string;
  following: boolean;
  onFollow: (follow: boolean) => void;
  onInfo: () => void;
  onClose: () => void;
}

export function DevicePopup({ session, deviceId, following, onFollow, onInfo, onClose }: DevicePopupProps) {
  const { t } = useTranslation('monitor');
  const navigate = useNavigate();
  const provider = useMapProvider();
  const { guard } = useDeviceAccess();
  useStoreVersion(session);
  const device = session.store.get(deviceId);
  const loc = device?.location;
  if (!device || !loc) return null;

  const action = (key: string, label: string, icon: React.ReactNode, onClick: () => void, active = false) => (
    <Tooltip title={label} key={key}>
      <Button
        size="small"
        type={active ? 'primary' : 'default'}
        icon={icon}
        onClick={onClick}
        aria-label={label}
        data-testid={`popup-${key}`}
      />
    </Tooltip>
  );

  return (
    <MapPopup position={[loc.lat, loc.lon]} onClose={onClose} offsetY={18}>
      <div data-testid="device-popup" style={{ minWidth: 250 }}>
        <Typography.Title level={5} style={{ margin: '0 0 6px' }} data-testid="popup-name">
          {device.displayName}
        </Typography.Title>
        <DeviceDetails device={device} now={Date.now()} />
        <Space size={6} style={{ marginTop: 8 }} wrap>
          {provider?.streetView &&
            action('streetView', t('actions.streetView'), <VideoCameraOutlined />, () =>
              guard('streetView', device, () => window.open(streetViewUrl(loc.lat, loc.lon), '_blank', 'noopener')),
            )}
          {action('fence', t('actions.fence'), <EnvironmentOutlined />, () =>
            guard('fence', device, () => navigate(fencePath(device.terminalID))),
          )}
          {action('command', t('actions.command'), <SendOutlined />, () =>
            guard('command', device, () => navigate(commandPath(device.terminalID))),
          )}
          {action('track', t('actions.track'), <NodeIndexOutlined />, () =>
            guard('track', device, () => navigate(trackPath(device.terminalID))),
          )}
          {action('info', t('actions.info'), <InfoCircleOutlined />, () => guard('info', device, onInfo))}
          <PopupTyreAction device={device} />
          {action(
            'follow',
            following ? t('actions.unfollow') : t('actions.follow'),
            <AimOutlined />,
            // Stopping to follow is always allowed.
            () => (following ? onFollow(false) : guard('follow', device, () => onFollow(true))),
            following,
          )}
        </Space>
      </div>
    </MapPopup>
  );
}
