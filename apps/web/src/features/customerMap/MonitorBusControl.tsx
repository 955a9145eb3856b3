// The monitor's bus routes (main:bus): a button beside the map controls opens a drawer to pick a route; the
// route's line and stops are drawn on the monitor map and its buses listed with the next stop and the ETA
// from their live positions. Renders nothing for accounts without main:bus.
import { CarOutlined } from '@ant-design/icons';
import { hasPermission } from '@carhere/domain';
import { useQuery } from '@tanstack/react-query';
import { Button, Drawer, Select, Tooltip } from 'antd';
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/store.ts';
import { MapCircle } from '../../map/layers/MapCircle.tsx';
import { MapPolyline } from '../../map/layers/MapPolyline.tsx';
import { findBusRoutes } from './api.ts';
import { BusLiveTable, useBusLive } from './BusLive.tsx';

// The chosen route, shared by the control (outside the map) and the layer (inside it).
let chosen: string | null = null;
const listeners = new Set<() => void>();
const routeStore = {
  get: () => chosen,
  set: (id: string | null) => {
    chosen = id;
    for (const l of listeners) l();
  },
  subscribe: (l: () => void) => {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};
const useChosenRoute = () => useSyncExternalStore(routeStore.subscribe, routeStore.get, routeStore.get);

export function MonitorBusControl() {
  const auth = useAuth();
  if (!hasPermission(auth?.permissions ?? [], ['main:bus'])) return null;
  return <BusControl />;
}

function BusControl() {
  const { t } = useTranslation('customerMap');
  const [open, setOpen] = useState(false);
  const routeId = useChosenRoute();
  const setRouteId = routeStore.set;
  const routes = useQuery({ queryKey: ['busRoutes'], queryFn: findBusRoutes, enabled: open || routeId !== null });
  const live = useBusLive(routeId);
  return (
    <>
      <Tooltip title={t('bus.monitorButton')}>
        <Button
          size="small"
          icon={<CarOutlined />}
          aria-label={t('bus.monitorButton')}
          type={routeId ? 'primary' : 'default'}
          onClick={() => setOpen(true)}
          data-testid="monitor-bus-button"
        />
      </Tooltip>
      <Drawer open={open} onClose={() => setOpen(false)} title={t('bus.monitorButton')} width={560} mask={false}>
        <Select
          allowClear
          style={{ width: '100%', marginBottom: 12 }}
          placeholder={t('bus.pickRoute')}
          value={routeId ?? undefined}
          onChange={(v) => setRouteId(v ?? null)}
          options={(routes.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
          data-testid="monitor-bus-route"
        />
        {live.data && <BusLiveTable route={live.data.route} buses={live.data.buses} />}
      </Drawer>
    </>
  );
}

/** The chosen route's line and stops on the monitor map (a child of BaseMap). */
export function MonitorBusLayer() {
  const routeId = useChosenRoute();
  const live = useBusLive(routeId);
  const route = routeId ? live.data?.route : undefined;
  if (!route) return null;
  const line = route.polyline.length >= 2 ? route.polyline : route.stops.map((s) => [s.lat, s.lon] as [number, number]);
  return (
    <>
      {line.length >= 2 && <MapPolyline positions={line} color="#722ed1" weight={4} />}
      {route.stops.map((s, i) => (
        <MapCircle
          key={`${s.lat},${s.lon},${s.name}`}
          center={[s.lat, s.lon]}
          radius={s.radius}
          color="#722ed1"
          tooltip={`${i + 1}. ${s.name}`}
        />
      ))}
    </>
  );
}
