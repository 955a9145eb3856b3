// /index/device/deviceImport: IMEI lines into devices of an account of the subtree, with protocol, model, service
// term and icon; the server imports as a job and this page shows its progress and the result counts
// (success, failure, unqualified, no factory test record, not preset, already stocked).
import {
  DEFAULT_PAGE_SIZE,
  DEVICE_MODELS,
  IMEI_808_LENGTH,
  PAGE_SIZE_OPTIONS,
  PROTOCOL_TYPES,
  parseImeiLines,
  requiresElevenDigitImei,
  SERVICE_TERMS,
} from '@carhere/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Form,
  Input,
  Progress,
  Row,
  Select,
  Statistic,
  Table,
  Typography,
} from 'antd';
import i18n from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/store.ts';
import { quotaSummary } from '../agent/api.ts';
import { SubNav } from '../agent/SubNav.tsx';
import { percentOf, useJob } from '../agent/useJob.ts';
import { AccountSelect } from './AccountSelect.tsx';
import { deviceImportJob, importDevices } from './api.ts';
import { iconTypeOptions } from './IconTypeImage.tsx';
import { DEVICE_PAGES } from './pages.ts';
import { QuotaNotice, quotaShort } from './QuotaNotice.tsx';

interface Values {
  userId: string;
  protocol: number;
  deviceType: number;
  serviceTerm?: number;
  iconType: number;
  text: string;
}

const label = (l: { cn: string; en: string }) => (i18n.language === 'cn' ? l.cn : l.en);
const COUNTS = ['success', 'failure', 'unqualified', 'noFactoryTest', 'notPreset', 'alreadyStocked'] as const;

export default function DeviceImportPage() {
  const { t } = useTranslation('device');
  const { message } = App.useApp();
  const auth = useAuth();
  const myId = auth?.userInfo.id ?? '';
  const [form] = Form.useForm<Values>();
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useJob('devices', jobId, deviceImportJob);
  const quota = useQuery({ queryKey: ['quota', myId], queryFn: () => quotaSummary(myId), enabled: myId !== '' });
  const text = Form.useWatch('text', form) ?? '';
  const protocol = Form.useWatch('protocol', form) ?? 2;
  const parsed = parseImeiLines(text);
  const running = job.data?.status === 'running' || (jobId !== null && !job.data);
  const queryClient = useQueryClient();
  const finished = job.data?.status === 'done';
  useEffect(() => {
    // The import changed the quota and the device lists: read them again.
    if (!finished) return;
    void queryClient.invalidateQueries({ queryKey: ['quota'] });
    void queryClient.invalidateQueries({ queryKey: ['devices'] });
    void queryClient.invalidateQueries({ queryKey: ['deviceCounts'] });
  }, [finished, queryClient]);

  const start = async () => {
    const v = await form.validateFields();
    try {
      const started = await importDevices({ ...v, serviceTerm: v.serviceTerm ?? null });
      setJobId(started.id);
    } catch (err) {
      message.error((err as Error).message);
    }
  };

  const result = job.data?.result;
  return (
    <div style={{ padding: 16 }}>
      <SubNav items={DEVICE_PAGES} />
      <Row gutter={16}>
        <Col xs={24} lg={12}>
          <Card size="small" title={t('import.title')}>
            <Form
              form={form}
              layout="vertical"
              initialValues={{ userId: myId, protocol: 2, deviceType: 12, iconType: 1, text: '' }}
              disabled={running}
            >
              <Form.Item name="userId" label={t('import.owner')} rules={[{ required: true }]}>
                <AccountSelect testId="import-owner" />
              </Form.Item>
              <Row gutter={8}>
                <Col span={12}>
                  <Form.Item name="protocol" label={t('import.protocol')}>
                    <Select options={PROTOCOL_TYPES.map((p) => ({ value: p.code, label: label(p) }))} />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item name="deviceType" label={t('import.model')}>
                    <Select
                      showSearch
                      optionFilterProp="label"
                      options={DEVICE_MODELS.map((m) => ({ value: m.code, label: m.name }))}
                    />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item name="serviceTerm" label={t('import.serviceTerm')}>
                    <Select allowClear options={SERVICE_TERMS.map((s) => ({ value: s.code, label: label(s) }))} />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item name="iconType" label={t('field.iconType')}>
                    <Select options={iconTypeOptions()} />
                  </Form.Item>
                </Col>
              </Row>
              {requiresElevenDigitImei(protocol) && (
                <Alert
                  type="info"
                  showIcon
                  style={{ marginBottom: 12 }}
                  message={t('import.elevenDigits', { length: IMEI_808_LENGTH })}
                />
              )}
              <Form.Item
                name="text"
                label={t('import.lines', { count: parsed.imeis.length })}
                rules={[{ required: true, whitespace: true }]}
              >
                <Input.TextArea rows={10} placeholder={t('imeis.placeholder')} data-testid="import-imeis" />
              </Form.Item>
              {quota.data && (
                <Descriptions size="small" style={{ marginBottom: 8 }}>
                  <Descriptions.Item label={t('import.quotaLeft')}>
                    {quota.data.unlimited ? t('import.unlimited') : quota.data.remaining}
                  </Descriptions.Item>
                </Descriptions>
              )}
              {quota.data && quotaShort(quota.data, parsed.imeis.length) && (
                <QuotaNotice remaining={quota.data.remaining} wanted={parsed.imeis.length} />
              )}
              <Button
                type="primary"
                onClick={() => void start()}
                loading={running}
                disabled={quotaShort(quota.data, parsed.imeis.length)}
                data-testid="import-start"
              >
                {t('import.start')}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          {jobId && (
            <Card size="small" title={t('import.progress')} data-testid="import-result">
              <Progress
                percent={percentOf(job.data)}
                status={job.data?.status === 'failed' ? 'exception' : undefined}
              />
              {job.data && (
                <Typography.Text type="secondary" data-testid="import-progress">
                  {t('import.processed', { processed: job.data.processed, total: job.data.total })}
                </Typography.Text>
              )}
              {job.data?.status === 'failed' && <Alert type="error" message={job.data.error} />}
              {result && (
                <>
                  <Row gutter={8} style={{ margin: '12px 0' }}>
                    {COUNTS.map((c) => (
                      <Col span={8} key={c} data-testid={`import-count-${c}`}>
                        <Statistic title={t(`import.count.${c}`)} value={result[c]} valueStyle={{ fontSize: 20 }} />
                      </Col>
                    ))}
                  </Row>
                  {result.rejected.length > 0 && (
                    <Table
                      size="small"
                      rowKey={(r) => `${r.terminalID}-${r.reason}`}
                      pagination={{
                        defaultPageSize: DEFAULT_PAGE_SIZE,
                        pageSizeOptions: [...PAGE_SIZE_OPTIONS],
                        showSizeChanger: true,
                      }}
                      dataSource={result.rejected}
                      columns={[
                        { title: t('column.imei'), dataIndex: 'terminalID', width: 170 },
                        { title: t('import.reason'), dataIndex: 'message' },
                      ]}
                    />
                  )}
                </>
              )}
            </Card>
          )}
        </Col>
      </Row>
    </div>
  );
}
