// An alarm's address: the stored one, else looked up (server and browser caches) and kept on the alarm.
import { Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { reverseGeocode } from '../../map/geocode.ts';
import type { Alarm } from './api.ts';

export function AddressCell({ alarm }: { alarm: Alarm }) {
  const { t, i18n } = useTranslation('alarms');
  const [address, setAddress] = useState<string | null | undefined>(alarm.address ?? undefined);
  const { lat, lon, id } = alarm;

  useEffect(() => {
    if (alarm.address || lat === null || lon === null) return;
    let live = true;
    void reverseGeocode({ lat, lon }, i18n.language).then((found) => {
      if (!live) return;
      setAddress(found);
      // Keep it on the alarm so exports and other users see it without another lookup.
      if (found) void api('/deviceAlarms/saveAlarmAddress', { id, address: found }).catch(() => undefined);
    });
    return () => {
      live = false;
    };
  }, [alarm.address, id, lat, lon, i18n.language]);

  if (lat === null || lon === null) return <Typography.Text type="secondary">{t('noLocation')}</Typography.Text>;
  const coords = `${lat.toFixed(6)}, ${lon.toFixed(6)}`;
  if (address === undefined) return <Typography.Text type="secondary">{coords}</Typography.Text>;
  return (
    <Typography.Text title={coords} ellipsis style={{ maxWidth: 320 }}>
      {address ?? t('addressUnavailable', { coords })}
    </Typography.Text>
  );
}
