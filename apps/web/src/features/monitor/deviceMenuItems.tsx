// A device's actions as context-menu items (map marker and list row right-clicks).
import {
  AimOutlined,
  EnvironmentOutlined,
  InfoCircleOutlined,
  NodeIndexOutlined,
  SendOutlined,
} from '@ant-design/icons';
import type { TFunction } from 'i18next';
import type { ContextMenuItem } from '../../map/tools/MapContextMenu.tsx';
import { commandPath, fencePath, trackPath } from './popup/deviceActions.ts';
import type { MonitorDevice } from './types.ts';

export function deviceMenuItems(
  device: MonitorDevice,
  t: TFunction<'monitor'>,
  actions: { navigate: (path: string) => void; follow: () => void; info: () => void; following: boolean },
): ContextMenuItem[] {
  return [
    {
      key: 'track',
      icon: <NodeIndexOutlined />,
      label: t('actions.track'),
      onClick: () => actions.navigate(trackPath(device.terminalID)),
    },
    {
      key: 'command',
      icon: <SendOutlined />,
      label: t('actions.command'),
      onClick: () => actions.navigate(commandPath(device.terminalID)),
    },
    {
      key: 'fence',
      icon: <EnvironmentOutlined />,
      label: t('actions.fence'),
      onClick: () => actions.navigate(fencePath(device.terminalID)),
    },
    {
      key: 'follow',
      icon: <AimOutlined />,
      label: actions.following ? t('actions.unfollow') : t('actions.follow'),
      onClick: actions.follow,
    },
    { key: 'info', icon: <InfoCircleOutlined />, label: t('actions.info'), onClick: actions.info },
  ];
}
