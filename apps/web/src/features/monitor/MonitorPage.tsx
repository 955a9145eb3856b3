// /index/home, live monitoring (main:monitor): the device list beside the map, clustered car markers with
// live updates, the selected device's popup, follow, context menus, the distance tool and alarm pop-ups.
import { ColumnWidthOutlined } from '@ant-design/icons';
import { Alert, App as AntApp, Button, Tooltip } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BaseMap } from '../../map/BaseMap.tsx';
import type { DeviceMarkerLayer } from '../../map/layers/deviceMarkerLayer.ts';
import { DistanceTool } from '../../map/tools/DistanceTool.tsx';
import { type ContextMenuRequest, MapContextMenu } from '../../map/tools/MapContextMenu.tsx';
import { MonitorBusControl, MonitorBusLayer } from '../customerMap/MonitorBusControl.tsx';
import { AccountPicker, usePicksAccounts } from '../custself/AccountPicker.tsx';
import { clientState } from '../custself/clientState.ts';
import { LiveNotifier } from '../notify/LiveNotifier.tsx';
import { AlarmNotifier } from './alarms/AlarmNotifier.tsx';
import { AlarmSoundToggle } from './alarms/AlarmSoundToggle.tsx';
import { deviceMenuItems } from './deviceMenuItems.tsx';
import { LiveStatusBadge } from './LiveStatusBadge.tsx';
import { DeviceListPanel } from './list/DeviceListPanel.tsx';
import { FloatingMenu } from './list/FloatingMenu.tsx';
import { DeviceMarkers } from './map/DeviceMarkers.tsx';
import { FollowDevice } from './map/FollowDevice.tsx';
import { DevicePopup } from './popup/DevicePopup.tsx';
import { useDeviceAccess } from './useDeviceAccess.ts';
import { useMonitorSession } from './useMonitorSession.ts';

// The device info drawer (antd Drawer) is not on screen at first paint: it loads when first opened and then
// stays mounted, so closing it animates as before.
const DeviceInfoDrawer = lazy(() =>
  import('./popup/DeviceInfoDrawer.tsx').then((m) => ({ default: m.DeviceInfoDrawer })),
);

const LIST_WIDTH = 320;

export default function MonitorPage() {
  const { t } = useTranslation('monitor');
  const { t: tMap } = useTranslation('map');
  const { message } = AntApp.useApp();
  const navigate = useNavigate();
  const { guard } = useDeviceAccess();
  const { session, loading, error } = useMonitorSession();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [popupId, setPopupId] = useState<string | null>(null);
  const [followId, setFollowId] = useState<string | null>(null);
  const [infoId, setInfoId] = useState<string | null>(null);
  const infoOpened = useRef(false);
  if (infoId !== null) infoOpened.current = true;
  const [measuring, setMeasuring] = useState(false);
  const [mapMenu, setMapMenu] = useState<ContextMenuRequest | null>(null);
  const [listMenu, setListMenu] = useState<{ id: string; x: number; y: number } | null>(null);
  const layer = useRef<DeviceMarkerLayer | null>(null);

  const select = useCallback(
    (id: string) => {
      setSelectedId(id);
      const device = session.store.get(id);
      // The selected device survives a reload (session key selectedTid).
      clientState.setSelectedTid(device?.terminalID ?? null);
      if (!device?.location) {
        setPopupId(null);
        message.info(t('noLocation'));
        return;
      }
      setPopupId(null);
      const open = () => setPopupId(id);
      if (layer.current?.marker(id)) layer.current.reveal(id, open);
      else open();
    },
    [session, message, t],
  );

  // After a reload: select the device selected before (once the list is in).
  const restored = useRef(false);
  useEffect(() => {
    if (loading || restored.current) return;
    restored.current = true;
    const tid = clientState.selectedTid();
    const device = tid ? session.store.byTerminal(tid) : undefined;
    if (device) select(device.deviceId);
  }, [loading, session, select]);
  const picksAccounts = usePicksAccounts();
  const reload = () => {
    setPopupId(null);
    session.reload().catch((err: Error) => message.error(err.message));
  };

  const toggleFollow = useCallback((id: string) => setFollowId((cur) => (cur === id ? null : id)), []);

  const menuFor = (id: string) => {
    const device = session.store.get(id);
    if (!device) return [];
    return deviceMenuItems(device, t, {
      navigate,
      follow: () => toggleFollow(id),
      info: () => setInfoId(id),
      following: followId === id,
      guard,
    });
  };

  return (
    <div style={{ display: 'flex', height: '100%' }} data-testid="home-page">
      <div style={{ width: LIST_WIDTH, flex: 'none', borderRight: '1px solid #f0f0f0' }}>
        <DeviceListPanel
          session={session}
          loading={loading}
          selectedId={selectedId}
          onSelect={select}
          onContextMenu={(id, x, y) => setListMenu({ id, x, y })}
          header={picksAccounts ? <AccountPicker onChange={reload} /> : undefined}
          onSearchHidden={(imei) => {
            // A special-brand agent asks for a device the rule hides: it joins the no-process set (nis).
            clientState.addNis(imei);
            reload();
          }}
        />
      </div>
      <div style={{ flex: 1, minWidth: 0, position: 'relative' }}>
        {error && (
          <Alert
            type="error"
            showIcon
            title={error}
            style={{ position: 'absolute', zIndex: 1001, top: 10, left: 60, right: 200 }}
          />
        )}
        <BaseMap
          controls={
            <>
              <LiveStatusBadge session={session} />
              <AlarmSoundToggle />
              <MonitorBusControl />
              <Tooltip title={tMap('distance.tool')}>
                <Button
                  size="small"
                  icon={<ColumnWidthOutlined />}
                  aria-label={tMap('distance.tool')}
                  data-testid="distance-button"
                  type={measuring ? 'primary' : 'default'}
                  onClick={() => setMeasuring((m) => !m)}
                />
              </Tooltip>
            </>
          }
        >
          <MonitorBusLayer />
          <DeviceMarkers
            session={session}
            loading={loading}
            selectedId={selectedId}
            onSelect={select}
            onLayer={(l) => {
              layer.current = l;
            }}
            onContextMenu={(id, e) =>
              setMapMenu({ x: e.containerPoint.x, y: e.containerPoint.y, latlng: e.latlng, items: menuFor(id) })
            }
          />
          {popupId && (
            <DevicePopup
              session={session}
              deviceId={popupId}
              following={followId === popupId}
              onFollow={() => toggleFollow(popupId)}
              onInfo={() => setInfoId(popupId)}
              onClose={() => setPopupId(null)}
            />
          )}
          {followId && <FollowDevice session={session} deviceId={followId} />}
          {measuring && <DistanceTool onClose={() => setMeasuring(false)} />}
          <MapContextMenu request={mapMenu} onMeasure={() => setMeasuring(true)} onDismiss={() => setMapMenu(null)} />
        </BaseMap>
      </div>
      {listMenu && (
        <FloatingMenu x={listMenu.x} y={listMenu.y} items={menuFor(listMenu.id)} onClose={() => setListMenu(null)} />
      )}
      {infoOpened.current && (
        <Suspense fallback={null}>
          <DeviceInfoDrawer session={session} deviceId={infoId} onClose={() => setInfoId(null)} />
        </Suspense>
      )}
      <AlarmNotifier session={session} onLocate={select} />
      <LiveNotifier session={session} />
    </div>
  );
}
