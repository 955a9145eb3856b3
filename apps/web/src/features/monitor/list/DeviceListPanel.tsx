// The device list panel: tabs (all, online, offline, inactive, expired, with counts), a search box (name,
// IMEI or plate) and a virtual list in the domain's order.
import { SearchOutlined } from '@ant-design/icons';
import { Button, Empty, Input, Spin } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
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
          <div style={{ display: 'grid', placeItems: 'center', height: '100%' }}>
            <Spin />
          </div>
        ) : shown.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noDevices')}>
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
