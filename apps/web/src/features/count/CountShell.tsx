// The frame of every statistics screen: the links between them (only those the role may open), a filter bar
// and the server's error message from the envelope.
import { Alert, Card, Space } from 'antd';
import type { ReactNode } from 'react';
import { SubNav, type SubNavItem } from '../agent/SubNav.tsx';

export const COUNT_PAGES: SubNavItem[] = [
  { path: 'count/countMileage', labelKey: 'count:nav.mileage' },
  { path: 'count/countAlarms', labelKey: 'count:nav.alarms' },
  { path: 'count/countStayDetail', labelKey: 'count:nav.stays' },
  { path: 'count/countTrips', labelKey: 'count:nav.trips' },
  { path: 'count/countPastDue', labelKey: 'count:nav.pastDue' },
  { path: 'count/countUsers', labelKey: 'count:nav.users' },
  { path: 'count/countFenceVisits', labelKey: 'count:nav.fenceVisits' },
  { path: 'count/countBattery', labelKey: 'count:nav.battery' },
  { path: 'count/countExport', labelKey: 'count:nav.export' },
];

export function CountShell({
  testId,
  filters,
  error,
  children,
}: {
  testId: string;
  filters?: ReactNode;
  error?: Error | null;
  children: ReactNode;
}) {
  return (
    <div style={{ padding: 16 }} data-testid={testId}>
      <SubNav items={COUNT_PAGES} />
      {filters && (
        <Card size="small" style={{ marginBottom: 12 }}>
          <Space wrap size={12}>
            {filters}
          </Space>
        </Card>
      )}
      {error && (
        <Alert type="error" showIcon message={error.message} style={{ marginBottom: 12 }} data-testid="count-error" />
      )}
      {children}
    </div>
  );
}
