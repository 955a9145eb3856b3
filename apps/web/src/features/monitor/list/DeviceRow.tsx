// One row of the device list: state dot, name, IMEI, and the speed or the state (not activated, offline, …).
import { carIconState, DEVICE_STATE } from '@carhere/domain';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { CAR_STATE_COLORS } from '../../../map/layers/carIconHtml.ts';
import type { MonitorDevice } from '../types.ts';

export const DEVICE_ROW_HEIGHT = 52;

// Plain elements with CSS ellipsis: thousands of rows pass through here while filtering.
const nameStyle = {
  fontWeight: 600,
  color: 'rgba(0,0,0,.88)',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
} as const;
const secondaryStyle = { fontSize: 12, color: 'rgba(0,0,0,.45)' } as const;

export interface DeviceRowProps {
  device: MonitorDevice;
  selected: boolean;
  now: number;
  onSelect: (id: string) => void;
  onContextMenu?: (id: string, x: number, y: number) => void;
}

function DeviceRowView({ device, selected, now, onSelect, onContextMenu }: DeviceRowProps) {
  const { t } = useTranslation('monitor');
  const state = carIconState(device, now);
  const speed =
    device.location && state !== 'offline' && state !== 'expired' ? Math.round(device.location.speed) : null;
  return (
    <div
      role="option"
      aria-selected={selected}
      tabIndex={-1}
      data-testid="device-row"
      data-device-id={device.deviceId}
      data-terminal-id={device.terminalID}
      onClick={() => onSelect(device.deviceId)}
      onKeyDown={(e) => e.key === 'Enter' && onSelect(device.deviceId)}
      onContextMenu={(e) => {
        if (!onContextMenu) return;
        e.preventDefault();
        onContextMenu(device.deviceId, e.clientX, e.clientY);
      }}
      style={{
        height: DEVICE_ROW_HEIGHT,
        padding: '6px 12px',
        cursor: 'pointer',
        borderBottom: '1px solid #f0f0f0',
        background: selected ? '#e6f4ff' : undefined,
        display: 'flex',
        alignItems: 'center',
        gap: 10,
        boxSizing: 'border-box',
      }}
    >
      <span
        title={t(`carState.${state}`)}
        style={{ width: 10, height: 10, borderRadius: 5, background: CAR_STATE_COLORS[state], flex: 'none' }}
      />
      <div style={{ minWidth: 0, flex: 1 }}>
        <div style={nameStyle} data-testid="device-name" title={device.displayName}>
          {device.displayName}
        </div>
        <div style={secondaryStyle}>{device.terminalID}</div>
      </div>
      <div style={{ ...secondaryStyle, flex: 'none' }}>
        {speed !== null
          ? t('speedValue', { speed })
          : device.state === DEVICE_STATE.notActivated && state !== 'expired'
            ? t('tabs.unactivated')
            : t(`carState.${state}`)}
      </div>
    </div>
  );
}

export const DeviceRow = memo(DeviceRowView);
