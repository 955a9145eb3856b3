// The last positions of the devices being fenced, so a fence can be drawn around them.
import { MapMarker } from '../../map/layers/MapMarker.tsx';
import { useDeviceOptions } from '../command/devices.ts';
import { DEVICE_PIN } from './pinIcon.ts';

export function DeviceMarkers({ terminalIDs }: { terminalIDs: readonly string[] }) {
  const devices = useDeviceOptions();
  const wanted = new Set(terminalIDs);
  return (
    <>
      {(devices.data ?? [])
        .filter((d) => wanted.has(d.terminalID) && d.lat !== null && d.lon !== null)
        .map((d) => (
          <MapMarker
            key={d.terminalID}
            position={[d.lat as number, d.lon as number]}
            icon={DEVICE_PIN}
            tooltip={d.displayName}
          />
        ))}
    </>
  );
}

/** Where to open the map: the first of these devices with a position. */
export function useDevicePosition(terminalID: string | null): [number, number] | undefined {
  const devices = useDeviceOptions();
  const d = terminalID ? devices.data?.find((x) => x.terminalID === terminalID) : undefined;
  return d && d.lat !== null && d.lon !== null ? [d.lat, d.lon] : undefined;
}
