// /index/dashboard (issue 17, beyond the spec): the fleet at a glance — devices by state in the spec's
// colours, today's alarms by type, devices expiring within 7 and 60 days, mileage of the last 7 days, the
// latest alarms. Every figure links to the screen that lists it. Each card asks only for what the user's
// permissions allow (a card the role cannot see is not shown). Agents and admins can make it their landing
// page (kept in this browser, see landing.ts); the spec's home stays the monitor by default.
import { hasPermission } from '@carhere/domain';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, List, Row, Skeleton, Statistic, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { useAuth } from '../../auth/store.ts';
import { Chart } from '../../charts/Chart.tsx';
import { barOption, pieOption } from '../../charts/options.ts';
import { useAlarmLabel } from '../alarms/labels.ts';
import { findAlarmCounts, findDays, findPastDue } from '../count/api.ts';
import { alarmsByType, formatKm, mergeDays } from '../count/figures.ts';
import { landingIsDashboard, setLandingDashboard } from './landing.ts';

const DAY_MS = 86_400_000;

/** The spec's state colours (monitor tabs): online green, offline grey, not activated blue, expired red. */
const STATE_COLOURS = {
  online: '#52c41a',
  offline: '#8c8c8c',
  unactivated: '#1677ff',
  expired: '#ff4d4f',
} as const;

interface Counts {
  all: number;
  online: number;
  offline: number;
  unactivated: number;
  expired: number;
}

interface LatestAlarm {
  id: string;
  terminalID: string;
  displayName?: string;
  alarmType?: number;
  type?: number;
  time?: string;
  alarmTime?: string;
}

function startOfToday(): number {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** The fleet's mileage per day (the rows are per device and day): one bar a day, oldest first. */
function fleetPerDay(rows: readonly { statsticDate: string; mileage: number }[]) {
  const byDate = new Map<string, number>();
  for (const r of rows) byDate.set(r.statsticDate, (byDate.get(r.statsticDate) ?? 0) + (r.mileage || 0));
  return [...byDate]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([statsticDate, mileage]) => ({ statsticDate, mileage }));
}

export default function DashboardPage() {
  const { t, i18n } = useTranslation('dashboard');
  const auth = useAuth();
  // '*:*:*' (the administrator) holds every permission: the domain's rule decides, as on the server.
  const may = (p: string) => hasPermission(auth?.permissions ?? [], [p]);
  const label = useAlarmLabel();
  const [landing, setLanding] = useState(landingIsDashboard());
  const today = startOfToday();
  const scope = { by: 'account' as const, children: true, terminalIDs: [] };

  const counts = useQuery({
    queryKey: ['dashboard', 'counts'],
    queryFn: () => api<Counts>('/device/countByUserId', {}),
    enabled: may('main:devices') || may('main:monitor'),
  });
  const alarms = useQuery({
    queryKey: ['dashboard', 'alarms', today],
    queryFn: ({ signal }) => findAlarmCounts(scope, { begin: today, end: Date.now() }, signal),
    enabled: may('main:stat_alarms'),
  });
  const expiring = useQuery({
    queryKey: ['dashboard', 'expiring'],
    queryFn: async ({ signal }) => {
      const [week, twoMonths] = await Promise.all([
        findPastDue(undefined, '7d', signal),
        findPastDue(undefined, '60d', signal),
      ]);
      return { week: week.length, twoMonths: twoMonths.length };
    },
    enabled: may('main:stat_pastdue'),
  });
  const mileage = useQuery({
    queryKey: ['dashboard', 'mileage', today],
    queryFn: ({ signal }) => findDays(scope, { begin: today - 6 * DAY_MS, end: Date.now() }, signal),
    enabled: may('main:stat_mileage'),
  });
  const latest = useQuery({
    queryKey: ['dashboard', 'latest'],
    queryFn: () => api<{ list: LatestAlarm[] }>('/deviceAlarms/findAll', { pageNum: 1, pageSize: 8 }),
    enabled: may('main:alarms'),
  });

  const perDay = fleetPerDay(mergeDays(mileage.data ?? []));
  const byType = alarmsByType(alarms.data ?? []);
  const todayAlarms = byType.reduce((sum, a) => sum + a.count, 0);

  return (
    <div style={{ padding: 16, overflow: 'auto', height: '100%' }} data-testid="dashboard">
      <Row justify="space-between" align="middle" style={{ marginBottom: 12 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('title')}
        </Typography.Title>
        <span>
          <Switch
            size="small"
            checked={landing}
            data-testid="dashboard-landing"
            onChange={(on) => {
              setLandingDashboard(on);
              setLanding(on);
            }}
          />{' '}
          {t('landing')}
        </span>
      </Row>
      <Row gutter={[16, 16]}>
        {counts.isEnabled !== false && (
          <Col xs={24} xl={12}>
            <Card title={t('devices.title')} size="small">
              {counts.isLoading ? (
                <Skeleton active paragraph={{ rows: 2 }} />
              ) : (
                <Row gutter={8}>
                  <Col xs={8} md={4}>
                    <Link to="/index/home" data-testid="dashboard-all">
                      <Statistic title={t('devices.all')} value={counts.data?.all ?? 0} />
                    </Link>
                  </Col>
                  {(['online', 'offline', 'unactivated', 'expired'] as const).map((k) => (
                    <Col xs={8} md={5} key={k}>
                      <Link
                        to={k === 'expired' ? '/index/count/countPastDue' : '/index/home'}
                        data-testid={`dashboard-${k}`}
                      >
                        <Statistic
                          title={t(`devices.${k}`)}
                          value={counts.data?.[k] ?? 0}
                          valueStyle={{ color: STATE_COLOURS[k] }}
                        />
                      </Link>
                    </Col>
                  ))}
                </Row>
              )}
            </Card>
          </Col>
        )}
        {may('main:stat_pastdue') && (
          <Col xs={24} xl={12}>
            <Card title={t('expiring.title')} size="small">
              {expiring.isLoading ? (
                <Skeleton active paragraph={{ rows: 2 }} />
              ) : (
                <Row gutter={8}>
                  <Col span={12}>
                    <Link to="/index/count/countPastDue?filter=7d" data-testid="dashboard-expiring-7d">
                      <Statistic title={t('expiring.week')} value={expiring.data?.week ?? 0} />
                    </Link>
                  </Col>
                  <Col span={12}>
                    <Link to="/index/count/countPastDue?filter=60d" data-testid="dashboard-expiring-60d">
                      <Statistic title={t('expiring.twoMonths')} value={expiring.data?.twoMonths ?? 0} />
                    </Link>
                  </Col>
                </Row>
              )}
            </Card>
          </Col>
        )}
        {may('main:stat_mileage') && (
          <Col xs={24} xl={12}>
            <Card
              title={t('mileage.title')}
              size="small"
              extra={<Link to="/index/count/countMileage">{t('more')}</Link>}
            >
              <Chart
                testId="dashboard-mileage"
                loading={mileage.isLoading}
                empty={!mileage.isLoading && perDay.length === 0}
                emptyText={t('mileage.empty')}
                height={240}
                option={barOption(
                  perDay.map((d) => d.statsticDate),
                  [{ name: t('mileage.series'), values: perDay.map((d) => d.mileage) }],
                  (v) => `${formatKm(v, i18n.language)} km`,
                )}
              />
            </Card>
          </Col>
        )}
        {may('main:stat_alarms') && (
          <Col xs={24} xl={12}>
            <Card
              title={`${t('alarms.title')} (${todayAlarms})`}
              size="small"
              extra={<Link to="/index/count/countAlarms">{t('more')}</Link>}
            >
              <Chart
                testId="dashboard-alarms"
                loading={alarms.isLoading}
                empty={!alarms.isLoading && byType.length === 0}
                emptyText={t('alarms.empty')}
                height={240}
                option={pieOption(
                  byType.map((a) => ({ name: label(a.alarmType), value: a.count })),
                  (v) => String(v),
                )}
              />
            </Card>
          </Col>
        )}
        {may('main:alarms') && (
          <Col xs={24}>
            <Card title={t('latest.title')} size="small" extra={<Link to="/index/alarms">{t('more')}</Link>}>
              <List
                loading={latest.isLoading}
                dataSource={latest.data?.list ?? []}
                locale={{ emptyText: t('latest.empty') }}
                data-testid="dashboard-latest"
                renderItem={(a) => (
                  <List.Item>
                    <Typography.Text>{label(Number(a.alarmType ?? a.type ?? 0))}</Typography.Text>
                    <Typography.Text type="secondary">{a.displayName ?? a.terminalID}</Typography.Text>
                    <Typography.Text type="secondary">
                      {new Date(a.alarmTime ?? a.time ?? '').toLocaleString(
                        i18n.language === 'cn' ? 'zh-CN' : i18n.language,
                      )}
                    </Typography.Text>
                  </List.Item>
                )}
              />
            </Card>
          </Col>
        )}
      </Row>
    </div>
  );
}
