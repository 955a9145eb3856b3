// A device's actions as context-menu items (map marker and list row right-clicks). Every item goes through
// `actions.guard` (the access check of ./access.ts, see useDeviceAccess): an inactive or expired device gets
// the spec's message instead of track playback, commands, fences or follow; device info stays open.
import {
  AimOutlined,
  EnvironmentOutlined,
  InfoCircleOutlined,
  NodeIndexOutlined,
  SendOutlined,
  ShareAltOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import type { TFunction } from 'i18next';
import type { ContextMenuItem } from '../../map/tools/MapContextMenu.tsx';
import type { DeviceFeature } from './access.ts';
import { commandPath, fencePath, trackPath } from './popup/deviceActions.ts';
import type { MonitorDevice } from './types.ts';

export function deviceMenuItems(
  device: MonitorDevice,
  t: TFunction<'monitor'>,
  actions: {
    navigate: (path: string) => void;
    follow: () => void;
    info: () => void;
    following: boolean;
    /** Runs the action when the feature may be used on the device, else shows why. */
    guard: (feature: DeviceFeature, device: MonitorDevice, action: () => void) => void;
  },
): ContextMenuItem[] {
  const { guard } = actions;
  return [
    {
      key: 'track',
      icon: <NodeIndexOutlined />,
      label: t('actions.track'),
      onClick: () => guard('track', device, () => actions.navigate(trackPath(device.terminalID))),
    },
    {
      key: 'command',
      icon: <SendOutlined />,
      label: t('actions.command'),
      onClick: () => guard('command', device, () => actions.navigate(commandPath(device.terminalID))),
    },
    {
      key: 'fence',
      icon: <EnvironmentOutlined />,
      label: t('actions.fence'),
      onClick: () => guard('fence', device, () => actions.navigate(fencePath(device.terminalID))),
    },
    {
      key: 'follow',
      icon: <AimOutlined />,
      label: actions.following ? t('actions.unfollow') : t('actions.follow'),
      // Stopping to follow is always allowed.
      onClick: () => (actions.following ? actions.follow() : guard('follow', device, actions.follow)),
    },
    {
      key: 'info',
      icon: <InfoCircleOutlined />,
      label: t('actions.info'),
      onClick: () => guard('info', device, actions.info),
    },
    // Issue 18: share the live position through a link; maintenance reminders.
    {
      key: 'share',
      icon: <ShareAltOutlined />,
      label: t('share:menu'),
      onClick: () => actions.navigate(`/index/share?terminalID=${encodeURIComponent(device.terminalID)}`),
    },
    {
      key: 'maintenance',
      icon: <ToolOutlined />,
      label: t('maintenance:menu'),
      onClick: () => actions.navigate(`/index/maintenance?terminalID=${encodeURIComponent(device.terminalID)}`),
    },
  ];
}
