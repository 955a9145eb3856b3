// The public page of a share link (/share/<token>, no sign-in): the device's name and last position on an
// OpenStreetMap map, asked again every few seconds (the link's own interval), so it follows the vehicle; an
// expired, revoked or unknown link says so plainly.

import { useQuery } from '@tanstack/react-query';
import { Card, Result, Spin, Tag, Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { BaseMap, useLeafletMap } from '../../map/BaseMap.tsx';
import { markerIcon } from '../../map/layers/carIcon.ts';
import { MapMarker } from '../../map/layers/MapMarker.tsx';
import { viewShare } from './api.ts';

/** Keeps the shared vehicle in view as it moves. */
function Follow({ lat, lon }: { lat: number; lon: number }) {
  const map = useLeafletMap();
  useEffect(() => {
    map?.setView([lat, lon], Math.max(map.getZoom(), 14));
  }, [map, lat, lon]);
  return null;
}

export default function PublicSharePage() {
  const { t } = useTranslation('share');
  const { token = '' } = useParams();
  const pin = useMemo(() => markerIcon('#1677ff'), []);
  const view = useQuery({
    queryKey: ['shareView', token],
    queryFn: ({ signal }) => viewShare(token, signal),
    refetchInterval: (q) => (q.state.data?.state === 'active' ? q.state.data.pollSeconds * 1000 : false),
    retry: 2,
  });
  if (view.isLoading) {
    return (
      <div style={{ display: 'grid', placeItems: 'center', height: '100%' }}>
        <Spin size="large" />
      </div>
    );
  }
  const data = view.data;
  if (data?.state !== 'active' || !data.device) {
    const kind = !data ? 'unknown' : data.state;
    return (
      <Result
        status={kind === 'unknown' ? '404' : 'warning'}
        title={<span data-testid="share-state">{t(`public.${kind}Title`)}</span>}
        subTitle={t(`public.${kind}Text`)}
      />
    );
  }
  const { device } = data;
  const p = device.position;
  return (
    <div style={{ position: 'relative', height: '100%' }}>
      <BaseMap mapType="osm" showTypeSelector={false} center={p ? [p.lat, p.lon] : undefined} zoom={14}>
        {p && <MapMarker position={[p.lat, p.lon]} icon={pin} tooltip={device.name || t('public.title')} />}
        {p && <Follow lat={p.lat} lon={p.lon} />}
      </BaseMap>
      <Card
        size="small"
        style={{ position: 'absolute', right: 12, top: 12, zIndex: 1000, minWidth: 240, maxWidth: 'calc(100% - 24px)' }}
        title={<span data-testid="share-name">{device.name || t('public.title')}</span>}
        extra={
          <Tag color={device.online ? 'green' : 'default'}>{t(device.online ? 'public.online' : 'public.offline')}</Tag>
        }
      >
        {p ? (
          <>
            <div data-testid="share-position">
              {p.lat.toFixed(5)}, {p.lon.toFixed(5)}
            </div>
            <div>
              {t('public.updated')}: {new Date(p.time).toLocaleString()}
            </div>
            <div>
              {t('public.speed')}: {t('public.kmh', { value: Math.round(p.speed) })}
            </div>
          </>
        ) : (
          <div data-testid="share-position">{t('public.noPosition')}</div>
        )}
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
          {t('public.until', { time: new Date(data.expiresAt).toLocaleString() })} ·{' '}
          {t('public.live', { seconds: data.pollSeconds })}
        </Typography.Text>
      </Card>
    </div>
  );
}
