// /index/reportSchedule (main:stat_export): scheduled statistics reports mailed as .xlsx daily, weekly or monthly
// in the account's time zone; the list shows each schedule's last send; "send now" sends the last period.
import { DeleteOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceSelect } from '../command/DeviceSelect.tsx';
import {
  addSchedule,
  deleteSchedule,
  FREQUENCIES,
  findSchedules,
  REPORT_KINDS,
  type Schedule,
  type ScheduleInput,
  sendScheduleNow,
  updateSchedule,
} from './api.ts';

export default function ReportSchedulePage() {
  const { t } = useTranslation('notify');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [page, setPage] = useState({ pageNum: 1, pageSize: 15 });
  const [draft, setDraft] = useState<ScheduleInput | null>(null);
  const list = useQuery({
    queryKey: ['reportSchedules', page],
    queryFn: () => findSchedules(page),
    placeholderData: (p) => p,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['reportSchedules'] });
  const onError = (err: Error) => message.error(err.message);
  const save = useMutation({
    mutationFn: addSchedule,
    onSuccess: () => {
      setDraft(null);
      refresh();
    },
    onError,
  });
  const remove = useMutation({ mutationFn: deleteSchedule, onSuccess: refresh, onError });
  const toggle = useMutation({
    mutationFn: (s: Schedule) => updateSchedule({ id: s.id, enabled: !s.enabled }),
    onSuccess: refresh,
    onError,
  });
  const sendNow = useMutation({
    mutationFn: sendScheduleNow,
    onSuccess: (r) => {
      message.info(t(`sendResult.${r.status}`, { defaultValue: r.status }));
      refresh();
    },
    onError,
  });
  const needsDevices = draft?.kind === 'stays' || draft?.kind === 'trips';
  const devices = (draft?.params.terminalIDs as string[] | undefined) ?? [];
  const ready = draft?.name.trim() && draft.emails.length > 0 && (!needsDevices || devices.length > 0);
  return (
    <div data-testid="report-schedules">
      <Button
        type="primary"
        icon={<PlusOutlined />}
        style={{ marginBottom: 12 }}
        onClick={() =>
          setDraft({
            name: '',
            kind: 'findAllMileage',
            params: { children: true },
            frequency: 'daily',
            emails: [],
            enabled: true,
          })
        }
        data-testid="schedule-add"
      >
        {t('addSchedule')}
      </Button>
      <Table<Schedule>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: list.data?.total ?? 0,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
        columns={[
          { title: t('name'), dataIndex: 'name' },
          { title: t('report'), render: (_, s) => t(`kinds.${s.kind}`) },
          { title: t('frequency'), render: (_, s) => t(`frequencies.${s.frequency}`) },
          { title: t('recipients'), render: (_, s) => s.emails.join(', ') },
          {
            title: t('lastSend'),
            render: (_, s) =>
              s.lastSend ? (
                <Space>
                  <Tag color={s.lastSend.status === 'sent' ? 'green' : s.lastSend.status === 'failed' ? 'red' : 'blue'}>
                    {t(`statuses.${s.lastSend.status}`, { defaultValue: s.lastSend.status })}
                  </Tag>
                  {s.lastSend.periodStart === s.lastSend.periodEnd
                    ? s.lastSend.periodStart
                    : `${s.lastSend.periodStart} – ${s.lastSend.periodEnd}`}
                  {` · ${t('rows', { count: s.lastSend.rows })}`}
                </Space>
              ) : (
                '—'
              ),
          },
          {
            title: t('enabled'),
            render: (_, s) => (
              <Button size="small" type="link" onClick={() => toggle.mutate(s)}>
                {s.enabled ? t('on') : t('off')}
              </Button>
            ),
          },
          {
            title: '',
            render: (_, s) => (
              <Space>
                <Button
                  size="small"
                  icon={<SendOutlined />}
                  loading={sendNow.isPending}
                  onClick={() => sendNow.mutate(s.id)}
                >
                  {t('sendNow')}
                </Button>
                <Popconfirm title={t('confirmDelete')} onConfirm={() => remove.mutate(s.id)}>
                  <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('delete')} />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {draft && (
        <Modal
          open
          title={t('addSchedule')}
          onCancel={() => setDraft(null)}
          okButtonProps={{ disabled: !ready, loading: save.isPending }}
          onOk={() => save.mutate({ ...draft, name: draft.name.trim() })}
        >
          <Form layout="vertical">
            <Form.Item label={t('name')} required>
              <Input value={draft.name} maxLength={80} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
            </Form.Item>
            <Form.Item label={t('report')}>
              <Select
                value={draft.kind}
                onChange={(kind) =>
                  setDraft({
                    ...draft,
                    kind,
                    params: kind === 'pastDue' ? { filter: 'within7Days' } : { children: true },
                  })
                }
                options={REPORT_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
              />
            </Form.Item>
            {needsDevices && (
              <Form.Item label={t('devices')} required>
                <DeviceSelect
                  multiple
                  value={devices}
                  onChange={(terminalIDs) => setDraft({ ...draft, params: { terminalIDs } })}
                />
              </Form.Item>
            )}
            <Form.Item label={t('frequency')}>
              <Select
                value={draft.frequency}
                onChange={(frequency) => setDraft({ ...draft, frequency })}
                options={FREQUENCIES.map((f) => ({ value: f, label: t(`frequencies.${f}`) }))}
              />
            </Form.Item>
            <Form.Item label={t('recipients')} required>
              <Select
                mode="tags"
                open={false}
                tokenSeparators={[',', ' ']}
                value={draft.emails}
                onChange={(emails) => setDraft({ ...draft, emails })}
              />
            </Form.Item>
          </Form>
        </Modal>
      )}
    </div>
  );
}
