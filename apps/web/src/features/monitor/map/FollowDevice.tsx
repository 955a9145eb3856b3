// Keeps a followed device in the middle of the map as its live positions arrive.
import { useEffect } from 'react';
import { useLeafletMap } from '../../../map/mapContext.ts';
import type { MonitorSession } from '../monitorSession.ts';

export function FollowDevice({ session, deviceId }: { session: MonitorSession; deviceId: string }) {
  const map = useLeafletMap();
  useEffect(() => {
    if (!map) return;
    const center = () => {
      const loc = session.store.get(deviceId)?.location;
      if (loc) map.panTo([loc.lat, loc.lon], { animate: true });
    };
    center();
    return session.changed.on((devices) => {
      if (devices.some((d) => d.deviceId === deviceId)) center();
    });
  }, [map, session, deviceId]);
  return null;
}
