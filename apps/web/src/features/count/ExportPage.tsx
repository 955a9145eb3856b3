// /index/count/countExport (main:stat_export): choose a report, its devices and range, start an export job on
// the server, follow its progress and download the xlsx when it is done.
import { DownloadOutlined, ExportOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Progress, Segmented, Select, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { percentOf } from '../agent/useJob.ts';
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
const ONE_DEVICE: ExportReport[] = ['stays', 'trips'];

export default function ExportPage() {
  const { t } = useTranslation('count');
  const { message } = App.useApp();
  const { period, setPeriod, range, error: periodError } = usePeriod(7);
  const [report, setReport] = useState<ExportReport>('days');
  const [scope, setScope] = useState<ScopeValue>(DEFAULT_SCOPE);
  const [terminalID, setTerminalID] = useState<string | undefined>();
  const [pastDue, setPastDue] = useState<PastDueFilter>('all');
  const [jobId, setJobId] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [saving, setSaving] = useState(false);

  const job = useQuery({
    queryKey: ['count', 'exportJob', jobId],
    queryFn: ({ signal }) => exportJob(jobId as string, signal),
    enabled: jobId !== null,
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 'running' ? false : POLL_MS),
  });

  const oneDevice = ONE_DEVICE.includes(report);
  const ready = report === 'pastDue' || (range !== null && (oneDevice ? terminalID !== undefined : scopeReady(scope)));

  const body = (): Record<string, unknown> => {
    if (report === 'pastDue') return { ...(scope.userId ? { userId: scope.userId } : {}), filter: pastDue };
    const window = {
      startTime: new Date(range?.begin ?? 0).toISOString(),
      endTime: new Date(range?.end ?? 0).toISOString(),
    };
    if (oneDevice) return { terminalIDs: [terminalID], ...window };
    return { ...scopeBody(toScope(scope)), ...window };
  };

  const start = async () => {
    setStarting(true);
    try {
      const started = await startExport(report, body());
      setJobId(started.id);
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setStarting(false);
    }
  };

  const save = async (j: ExportJob) => {
    setSaving(true);
    try {
      await downloadExport(j.id, `${t(`export.report.${report}`)}-${dayjs().format('YYYYMMDD-HHmm')}.xlsx`);
      message.success(t('export.saved'));
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setSaving(false);
    }
  };

  const current = job.data;
  const running = jobId !== null && (!current || current.status === 'running');

  return (
    <CountShell
      testId="count-export"
      error={job.error}
      filters={<Typography.Text strong>{t('nav.export')}</Typography.Text>}
    >
      <Card size="small" style={{ maxWidth: 820 }}>
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
                options={(['all', '7d', '60d', 'expired'] as const).map((x) => ({
                  value: x,
                  label: t(`pastDue.filter.${x}`),
                }))}
              />
            </Form.Item>
          ) : (
            <>
              <Form.Item label={t('export.devices')}>
                {oneDevice ? (
                  <DeviceSelect value={terminalID} onChange={setTerminalID} placeholder={t('scope.pickDevice')} />
                ) : (
                  <ScopePicker value={scope} onChange={setScope} />
                )}
              </Form.Item>
              <Form.Item label={t('export.range')}>
                <DateSearch value={period} onChange={setPeriod} error={periodError} />
              </Form.Item>
            </>
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
                  percent={current?.status === 'done' ? 100 : percentOf(current)}
                  status={
                    current?.status === 'failed' ? 'exception' : current?.status === 'done' ? 'success' : 'active'
                  }
                />
                {current && (
                  <Typography.Text type="secondary" data-testid="export-progress">
                    {t('export.progress', { processed: current.processed, total: current.total })}
                  </Typography.Text>
                )}
                {current?.status === 'failed' && (
                  <Alert type="error" showIcon message={current.error ?? t('export.failed')} style={{ marginTop: 8 }} />
                )}
                {current?.status === 'done' && (
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
