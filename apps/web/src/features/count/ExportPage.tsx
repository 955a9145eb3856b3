// /index/count/countExport (main:stat_export): choose a report, its devices and range, start an export job on
// the server (POST /stat/export), follow its progress and download the xlsx when it is done.
import { DownloadOutlined, ExportOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Progress, Segmented, Select, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceSelect } from '../command/DeviceSelect.tsx';
import {
  downloadExport,
  EXPORT_REPORTS,
  type ExportJob,
  type ExportReport,
  exportJob,
  type PastDueFilter,
  scopeBody,
  startExport,
} from './api.ts';
import { CountShell } from './CountShell.tsx';
import { DateSearch } from './DateSearch.tsx';
import { DEFAULT_SCOPE, ScopePicker, type ScopeValue, scopeReady, toScope } from './ScopePicker.tsx';
import { usePeriod } from './usePeriod.ts';

const POLL_MS = 500;
/** Reports over chosen devices (the server takes their IMEIs). */
const BY_DEVICES: readonly ExportReport[] = ['stays', 'trips'];
/** Reports without a date range. */
const NO_RANGE: readonly ExportReport[] = ['pastDue', 'battery'];
const PAST_DUE: readonly PastDueFilter[] = ['all', '7d', '60d', 'expired'];

const isRunning = (job: ExportJob) => job.state === 'queued' || job.state === 'running';

export default function ExportPage() {
  const { t } = useTranslation('count');
  const { message } = App.useApp();
  const { period, setPeriod, range, error: periodError } = usePeriod(7);
  const [report, setReport] = useState<ExportReport>('find');
  const [scope, setScope] = useState<ScopeValue>(DEFAULT_SCOPE);
  const [terminalIDs, setTerminalIDs] = useState<string[]>([]);
  const [pastDue, setPastDue] = useState<PastDueFilter>('all');
  const [jobId, setJobId] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [saving, setSaving] = useState(false);

  const job = useQuery({
    queryKey: ['count', 'exportJob', jobId],
    queryFn: ({ signal }) => exportJob(jobId as string, signal),
    enabled: jobId !== null,
    refetchInterval: (q) => (q.state.data && !isRunning(q.state.data) ? false : POLL_MS),
  });

  const byDevices = BY_DEVICES.includes(report);
  const needsRange = !NO_RANGE.includes(report);
  const ready =
    (!needsRange || range !== null) &&
    (report === 'pastDue' || (byDevices ? terminalIDs.length > 0 : scopeReady(scope)));

  const body = (): Record<string, unknown> => {
    // The whole subtree: no account picker is shown for this report.
    if (report === 'pastDue') return { filter: pastDue, ...scopeBody({}) };
    const window =
      needsRange && range
        ? { startTime: new Date(range.begin).toISOString(), endTime: new Date(range.end).toISOString() }
        : {};
    if (byDevices) return { terminalIDs, ...window };
    return { ...scopeBody(toScope(scope)), ...window };
  };

  const start = async () => {
    setStarting(true);
    try {
      const started = await startExport(report, body());
      setJobId(started.jobId);
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setStarting(false);
    }
  };

  const save = async (j: ExportJob) => {
    setSaving(true);
    try {
      const name = (EXPORT_REPORTS as readonly string[]).includes(j.kind) ? t(`export.report.${j.kind}`) : j.kind;
      await downloadExport(j.jobId, `${name}-${dayjs().format('YYYYMMDD-HHmm')}.xlsx`);
      message.success(t('export.saved'));
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setSaving(false);
    }
  };

  const current = job.data;
  const running = jobId !== null && (!current || isRunning(current));
  const percent = current?.state === 'done' ? 100 : Math.floor((current?.progress ?? 0) * 100);

  return (
    <CountShell testId="count-export" error={job.error}>
      <Card size="small" title={t('nav.export')} style={{ maxWidth: 820 }}>
        <Form layout="vertical">
          <Form.Item label={t('export.which')}>
            <Select<ExportReport>
              value={report}
              onChange={(r) => {
                setReport(r);
                setJobId(null);
              }}
              options={EXPORT_REPORTS.map((r) => ({ value: r, label: t(`export.report.${r}`) }))}
              style={{ maxWidth: 360 }}
              data-testid="export-report"
            />
          </Form.Item>
          {report === 'pastDue' ? (
            <Form.Item label={t('export.filter')}>
              <Segmented<PastDueFilter>
                value={pastDue}
                onChange={setPastDue}
                options={PAST_DUE.map((x) => ({ value: x, label: t(`pastDue.filter.${x}`) }))}
              />
            </Form.Item>
          ) : (
            <Form.Item label={t('export.devices')}>
              {byDevices ? (
                <DeviceSelect
                  multiple
                  value={terminalIDs}
                  onChange={setTerminalIDs}
                  placeholder={t('scope.pickDevices')}
                  style={{ minWidth: 320, maxWidth: 520 }}
                  testId="export-devices"
                />
              ) : (
                <ScopePicker value={scope} onChange={setScope} />
              )}
            </Form.Item>
          )}
          {needsRange && (
            <Form.Item label={t('export.range')}>
              <DateSearch value={period} onChange={setPeriod} error={periodError} />
            </Form.Item>
          )}
          <Space direction="vertical" style={{ width: '100%' }}>
            <Button
              type="primary"
              icon={<ExportOutlined />}
              disabled={!ready || running}
              loading={starting}
              onClick={() => void start()}
              data-testid="export-start"
            >
              {t('export.start')}
            </Button>
            {jobId !== null && (
              <div data-testid="export-job">
                <Progress
                  percent={percent}
                  status={current?.state === 'failed' ? 'exception' : current?.state === 'done' ? 'success' : 'active'}
                />
                {current && (
                  <Typography.Text type="secondary" data-testid="export-progress">
                    {current.state === 'queued' ? t('export.queued') : t('export.progress', { rows: current.rows })}
                  </Typography.Text>
                )}
                {current?.state === 'failed' && (
                  <Alert type="error" showIcon message={current.error ?? t('export.failed')} style={{ marginTop: 8 }} />
                )}
                {current?.state === 'done' && (
                  <div style={{ marginTop: 8 }}>
                    <Button
                      icon={<DownloadOutlined />}
                      loading={saving}
                      onClick={() => void save(current)}
                      data-testid="export-download"
                    >
                      {t('export.download')}
                    </Button>
                  </div>
                )}
              </div>
            )}
          </Space>
        </Form>
      </Card>
    </CountShell>
  );
}
