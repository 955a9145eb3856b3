// Device info: everything the monitoring page knows about one device, in a side drawer.
import { Drawer } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MonitorSession } from '../monitorSession.ts';
import { useStoreVersion } from '../useMonitorSession.ts';
import { DeviceDetails } from './DeviceDetails.tsx';

export function DeviceInfoDrawer({
  session,
  deviceId,
  onClose,
}: {
  session: MonitorSession;
  deviceId: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('monitor');
  useStoreVersion(session);
  const device = deviceId ? session.store.get(deviceId) : undefined;
  return (
    <Drawer
      open={!!device}
      onClose={onClose}
      title={device?.displayName ?? t('actions.info')}
      size="default"
      destroyOnHidden
    >
      {device && <DeviceDetails device={device} now={Date.now()} extended />}
    </Drawer>
  );
}
