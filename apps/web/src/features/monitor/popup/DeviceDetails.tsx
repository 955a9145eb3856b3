// The facts of one device shown in its popup and info drawer: name, IMEI, speed and heading, fix time,
// address, location type (BeiDou, GPS, LBS, WiFi), battery, ACC and state.
import { carIconState, headingOf } from '@carhere/domain';
import { Typography } from 'antd';
import dayjs from 'dayjs';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { MonitorDevice } from '../types.ts';
import { useAddress } from './useAddress.ts';

export function formatTime(ms: number | null | undefined): string {
  return ms ? dayjs(ms).format('YYYY-MM-DD HH:mm:ss') : '-';
}

export function DeviceDetails({ device, now, extended }: { device: MonitorDevice; now: number; extended?: boolean }) {
  const { t } = useTranslation('monitor');
  const { t: tc } = useTranslation('custself');
  const loc = device.location;
  const address = useAddress(loc?.lat ?? null, loc?.lon ?? null);
  const heading = headingOf(device.course);
  const state = carIconState(device, now);
  const addressText =
    address.status === 'loading'
      ? t('popup.addressLoading')
      : (address.address ?? (loc ? `${loc.lat.toFixed(6)}, ${loc.lon.toFixed(6)}` : t('popup.noLocation')));
  const items = [
    { key: 'imei', label: t('popup.imei'), children: device.terminalID },
    { key: 'state', label: t('popup.state'), children: t(`carState.${state}`) },
    {
      key: 'speed',
      label: t('popup.speed'),
      children: loc
        ? `${t('speedValue', { speed: Math.round(loc.speed) })}${heading ? ` · ${t(`heading.${heading}`)}` : ''}`
        : '-',
    },
    { key: 'time', label: t('popup.time'), children: formatTime(loc?.utcTime) },
    { key: 'address', label: t('popup.address'), children: <span data-testid="popup-address">{addressText}</span> },
    {
      key: 'locationType',
      label: t('popup.locationType'),
      children: device.locationType ? t(`locationType.${device.locationType}`) : '-',
    },
    { key: 'battery', label: t('popup.battery'), children: device.battery !== null ? `${device.battery}%` : '-' },
    {
      key: 'acc',
      label: t('popup.acc'),
      children: device.acc === null ? '-' : device.acc ? t('popup.accOn') : t('popup.accOff'),
    },
    // The current driver (driver card or set by hand; issue 16), shown when there is one.
    ...(device.driverName
      ? [
          {
            key: 'driver',
            label: tc('drivers.driver'),
            children: (
              <span data-testid="popup-driver">
                {device.driverName}
                {device.driverPhone ? ` · ${device.driverPhone}` : ''}
              </span>
            ),
          },
        ]
      : []),
    ...(extended
      ? [
          { key: 'lastSeen', label: t('popup.lastSeen'), children: formatTime(device.lastSeen) },
          { key: 'expire', label: t('popup.expire'), children: formatTime(device.expire) },
          { key: 'carNumber', label: t('popup.carNumber'), children: device.carNumber || '-' },
        ]
      : []),
  ];
  // Two aligned columns sized by the longest label of the language: a fixed label width let long labels
  // (ru 'Позиционирование', my, km) run over their values.
  return (
    <div
      style={{
        display: 'grid',
        gridTemplateColumns: 'max-content auto',
        columnGap: 12,
        rowGap: 8,
        lineHeight: 1.5715,
      }}
    >
      {items.map((item) => (
        <Fragment key={item.key}>
          <Typography.Text type="secondary">{item.label}:</Typography.Text>
          <span style={{ overflowWrap: 'break-word' }}>{item.children}</span>
        </Fragment>
      ))}
    </div>
  );
}
