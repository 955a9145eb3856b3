// The device list panel: tabs (all, online, offline, inactive, expired, with counts), a search box (name,
// IMEI or plate) and a virtual list in the domain's order.
import { SearchOutlined } from '@ant-design/icons';
import { Button, Empty, Input, Skeleton } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { mayOpen } from '../../../app/guard.ts';
import { useAuth } from '../../../auth/store.ts';
import type { MonitorSession } from '../monitorSession.ts';
import type { MonitorDevice } from '../types.ts';
import { useStoreVersion } from '../useMonitorSession.ts';
import { DEVICE_ROW_HEIGHT, DeviceRow } from './DeviceRow.tsx';
import { filterDevices, type ListTab, listCounts } from './filter.ts';
import { ListTabs } from './ListTabs.tsx';
import { VirtualList } from './VirtualList.tsx';

export interface DeviceListPanelProps {
  session: MonitorSession;
  loading: boolean;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onContextMenu?: (id: string, x: number, y: number) => void;
  /** Above the search box: the account picker. */
  header?: ReactNode;
  /** A search that finds nothing in the list (an IMEI hidden by the special-brand rule): ask the server. */
  onSearchHidden?: (query: string) => void;
}

export function DeviceListPanel({
  session,
  loading,
  selectedId,
  onSelect,
  onContextMenu,
  header,
  onSearchHidden,
}: DeviceListPanelProps) {
  const { t } = useTranslation('monitor');
  const { t: tc } = useTranslation('custself');
  const version = useStoreVersion(session);
  const [tab, setTab] = useState<ListTab>('all');
  const [query, setQuery] = useState('');

  // biome-ignore lint/correctness/useExhaustiveDependencies: the store is mutable; its version says when it changed
  const sorted = useMemo(() => session.store.sorted(Date.now()), [session, version]);
  const now = Date.now();
  const counts = useMemo(() => listCounts(sorted, Date.now()), [sorted]);
  const shown: MonitorDevice[] = useMemo(() => filterDevices(sorted, tab, query, Date.now()), [sorted, tab, query]);
  const selectedIndex = selectedId ? shown.findIndex((d) => d.deviceId === selectedId) : -1;
  const auth = useAuth();
  const mayImport = mayOpen('/index/device/deviceImport', auth);
  // Nothing at all in the account (not a search or a tab that is empty): say what to do next.
  const noneAtAll = sorted.length === 0 && query === '';

  return (
    <div
      style={{ display: 'flex', flexDirection: 'column', height: '100%', background: '#fff' }}
      data-testid="device-list"
    >
      {header}
      <div style={{ padding: '10px 12px 0' }}>
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('searchPlaceholder')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="device-search"
        />
      </div>
      <div style={{ padding: '8px 12px' }}>
        <ListTabs tab={tab} counts={counts} onChange={setTab} />
      </div>
      <div style={{ flex: 1, minHeight: 0 }}>
        {loading ? (
          <div style={{ padding: '4px 12px' }} data-testid="device-list-loading">
            <Skeleton active avatar={{ size: 'small', shape: 'square' }} paragraph={{ rows: 1 }} />
            <Skeleton active avatar={{ size: 'small', shape: 'square' }} paragraph={{ rows: 1 }} />
            <Skeleton active avatar={{ size: 'small', shape: 'square' }} paragraph={{ rows: 1 }} />
          </div>
        ) : shown.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={noneAtAll ? (mayImport ? t('empty.import') : t('empty.ask')) : t('noDevices')}
            data-testid="device-list-empty"
          >
            {noneAtAll && mayImport && (
              <Link to="/index/device/deviceImport">
                <Button size="small" type="primary" data-testid="device-list-import">
                  {t('empty.importButton')}
                </Button>
              </Link>
            )}
            {onSearchHidden && /^[0-9A-Za-z]{10,15}$/.test(query.trim()) && (
              <Button size="small" onClick={() => onSearchHidden(query.trim())} data-testid="search-hidden">
                {tc('monitor.searchHidden')}
              </Button>
            )}
          </Empty>
        ) : (
          <VirtualList
            testId="device-virtual-list"
            items={shown}
            rowHeight={DEVICE_ROW_HEIGHT}
            itemKey={(d) => d.deviceId}
            scrollToIndex={selectedIndex}
            renderRow={(d) => (
              <DeviceRow
                device={d}
                now={now}
                selected={d.deviceId === selectedId}
                onSelect={onSelect}
                onContextMenu={onContextMenu}
              />
            )}
          />
        )}
      </div>
    </div>
  );
}
