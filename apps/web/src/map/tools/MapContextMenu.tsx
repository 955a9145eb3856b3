// The right-click context menu of a map (spec §2 "a right-click context menu exists"): zoom, centre here,
// measure, copy the WGS-84 coordinates, plus whatever the page adds (e.g. a device's actions).
import { Menu, type MenuProps } from 'antd';
import type L from 'leaflet';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLeafletMap } from '../mapContext.ts';

export interface ContextMenuItem {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  onClick: () => void;
}

export interface ContextMenuRequest {
  /** Container pixel of the click. */
  x: number;
  y: number;
  latlng: L.LatLng;
  /** Items placed before the map's own items (e.g. a device's actions). */
  items?: ContextMenuItem[];
}

export interface MapContextMenuProps {
  /** A request from a layer (a marker's right-click); map right-clicks are handled here. */
  request?: ContextMenuRequest | null;
  onMeasure?: () => void;
  onDismiss?: () => void;
}

export function MapContextMenu({ request, onMeasure, onDismiss }: MapContextMenuProps) {
  const { t } = useTranslation('map');
  const map = useLeafletMap();
  const [open, setOpen] = useState<ContextMenuRequest | null>(null);

  useEffect(() => {
    if (request) setOpen(request);
  }, [request]);

  useEffect(() => {
    if (!map) return;
    const onContext = (e: L.LeafletMouseEvent) => {
      e.originalEvent.preventDefault();
      setOpen({ x: e.containerPoint.x, y: e.containerPoint.y, latlng: e.latlng });
    };
    const close = () => {
      setOpen(null);
      onDismiss?.();
    };
    map.on('contextmenu', onContext);
    map.on('click movestart zoomstart', close);
    return () => {
      map.off('contextmenu', onContext);
      map.off('click movestart zoomstart', close);
    };
  }, [map, onDismiss]);

  if (!open || !map) return null;
  const latlng = open.latlng;
  const own: ContextMenuItem[] = [
    { key: 'zoomIn', label: t('context.zoomIn'), onClick: () => map.setZoomAround(latlng, map.getZoom() + 1) },
    { key: 'zoomOut', label: t('context.zoomOut'), onClick: () => map.setZoomAround(latlng, map.getZoom() - 1) },
    { key: 'center', label: t('context.centerHere'), onClick: () => map.panTo(latlng) },
    ...(onMeasure ? [{ key: 'measure', label: t('context.measure'), onClick: onMeasure }] : []),
    {
      key: 'copy',
      label: t('context.copyCoordinates'),
      onClick: () => void navigator.clipboard?.writeText(`${latlng.lat.toFixed(6)},${latlng.lng.toFixed(6)}`),
    },
  ];
  const all = [...(open.items ?? []), ...own];
  const items: MenuProps['items'] = all.map((i) => ({ key: i.key, label: i.label, icon: i.icon }));
  const size = map.getSize();
  return (
    <div
      data-testid="map-context-menu"
      style={{
        position: 'absolute',
        left: Math.min(open.x, size.x - 200),
        top: Math.min(open.y, size.y - all.length * 40 - 8),
        zIndex: 1100,
        boxShadow: '0 6px 16px rgba(0,0,0,.15)',
        borderRadius: 8,
        overflow: 'hidden',
      }}
      onContextMenu={(e) => e.preventDefault()}
    >
      <Menu
        selectable={false}
        style={{ width: 190, borderInlineEnd: 'none' }}
        items={items}
        onClick={({ key }) => {
          all.find((i) => i.key === key)?.onClick();
          setOpen(null);
          onDismiss?.();
        }}
      />
    </div>
  );
}
