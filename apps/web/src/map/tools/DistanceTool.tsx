// The distance tool (spec §9): click points on the map to measure a path; stroke width 2; a click closer
// than 5 px to the previous point is ignored; double-click or Esc finishes; metric or US units.
import { CloseOutlined } from '@ant-design/icons';
import { DISTANCE_TOOL } from '@carhere/domain';
import { Button, Segmented, Space } from 'antd';
import L from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { distanceMetres } from '../coords.ts';
import { text } from '../html/leafletHtml.ts';
import { useLeafletMap } from '../mapContext.ts';
import { type DistanceUnit, formatDistance } from './distanceFormat.ts';

const MIN_SEGMENT_PX = DISTANCE_TOOL.minSegmentClickPx;
const STROKE_WEIGHT = DISTANCE_TOOL.strokeWidth;
const COLOR = '#e8590c';

export interface DistanceToolProps {
  onClose: () => void;
}

export function DistanceTool({ onClose }: DistanceToolProps) {
  const { t } = useTranslation('map');
  const map = useLeafletMap();
  const [unit, setUnit] = useState<DistanceUnit>('metric');
  const [points, setPoints] = useState<L.LatLng[]>([]);
  const [finished, setFinished] = useState(false);
  const layer = useRef<L.LayerGroup | null>(null);

  useEffect(() => {
    if (!map) return;
    const group = L.layerGroup().addTo(map);
    layer.current = group;
    const container = map.getContainer();
    container.style.cursor = 'crosshair';
    map.doubleClickZoom.disable();
    return () => {
      group.remove();
      container.style.cursor = '';
      map.doubleClickZoom.enable();
    };
  }, [map]);

  useEffect(() => {
    if (!map || finished) return;
    const onClick = (e: L.LeafletMouseEvent) => {
      setPoints((prev) => {
        const last = prev[prev.length - 1];
        if (last && map.latLngToContainerPoint(last).distanceTo(e.containerPoint) < MIN_SEGMENT_PX) return prev;
        return [...prev, e.latlng];
      });
    };
    const finish = () => setFinished(true);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') finish();
    };
    map.on('click', onClick);
    map.on('dblclick', finish);
    window.addEventListener('keydown', onKey);
    return () => {
      map.off('click', onClick);
      map.off('dblclick', finish);
      window.removeEventListener('keydown', onKey);
    };
  }, [map, finished]);

  useEffect(() => {
    const group = layer.current;
    if (!group) return;
    group.clearLayers();
    if (points.length === 0) return;
    L.polyline(points, { color: COLOR, weight: STROKE_WEIGHT, interactive: false }).addTo(group);
    let total = 0;
    points.forEach((p, i) => {
      if (i > 0)
        total += distanceMetres({ lat: points[i - 1].lat, lon: points[i - 1].lng }, { lat: p.lat, lon: p.lng });
      L.circleMarker(p, { radius: 4, color: COLOR, weight: 2, fillColor: '#fff', fillOpacity: 1 })
        .bindTooltip(text(i === 0 ? t('distance.start') : formatDistance(total, unit)), {
          permanent: true,
          direction: 'right',
          offset: [6, 0],
          className: 'carhere-distance-label',
        })
        .addTo(group);
    });
  }, [points, unit, t]);

  let total = 0;
  for (let i = 1; i < points.length; i++) {
    total += distanceMetres(
      { lat: points[i - 1].lat, lon: points[i - 1].lng },
      { lat: points[i].lat, lon: points[i].lng },
    );
  }

  return (
    <div
      data-testid="distance-tool"
      style={{
        position: 'absolute',
        top: 52,
        right: 10,
        zIndex: 1000,
        background: '#fff',
        padding: '6px 10px',
        borderRadius: 6,
        boxShadow: '0 2px 8px rgba(0,0,0,.15)',
      }}
    >
      <Space size="small">
        <span>{finished ? t('distance.total') : t('distance.hint')}</span>
        <strong data-testid="distance-total">{formatDistance(total, unit)}</strong>
        <Segmented<DistanceUnit>
          size="small"
          value={unit}
          onChange={setUnit}
          options={[
            { value: 'metric', label: t('distance.metric') },
            { value: 'us', label: t('distance.us') },
          ]}
        />
        <Button size="small" type="text" icon={<CloseOutlined />} aria-label={t('distance.close')} onClick={onClose} />
      </Space>
    </div>
  );
}
