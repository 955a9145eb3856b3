// Command records of a device (type, content, reply, sender, send and execute time) and the open offline
// commands, refreshed while the page is open; each record's status changes are one click away.
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, translate } from '@carhere/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Popconfirm, Table, Tabs, Timeline, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReplyCell } from '../deviceTypes/OilOutcome.tsx';
import { DeviceRecordings } from '../recordings/DeviceRecordings.tsx';
import { RecordingPlayer } from '../recordings/RecordingsTable.tsx';
import { type CommandRecord, cancelOffline, findLog, findOpenOffline, findRecords } from './api.ts';
import { ModeTag, StatusTag } from './statusTag.tsx';

const REFRESH_MS = 5000;
// On one line: in narrow columns (ru, km at 1280 px) the date and the time broke onto two lines.
const time = (v: string | null) => (
  <span style={{ whiteSpace: 'nowrap' }}>{v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : '-'}</span>
);

export function CommandRecords({ terminalID, recording = false }: { terminalID: string; recording?: boolean }) {
  const { t, i18n } = useTranslation('command');
  const { t: tr } = useTranslation('recordings');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const [logOf, setLogOf] = useState<CommandRecord | null>(null);

  const records = useQuery({
    queryKey: ['commandRecords', terminalID, page],
    queryFn: ({ signal }) => findRecords(terminalID, page.pageNum, page.pageSize, signal),
    refetchInterval: REFRESH_MS,
  });
  const offline = useQuery({
    queryKey: ['commandOffline', terminalID],
    queryFn: ({ signal }) => findOpenOffline(terminalID, signal),
    refetchInterval: REFRESH_MS,
  });
  const log = useQuery({
    queryKey: ['commandLog', logOf?.id],
    queryFn: ({ signal }) => findLog(logOf?.id ?? '', signal),
    enabled: logOf !== null,
  });
  const cancel = useMutation({
    mutationFn: (id: string) => cancelOffline(id),
    onSuccess: () => {
      message.success(t('cancelled'));
      void queryClient.invalidateQueries({ queryKey: ['commandOffline'] });
      void queryClient.invalidateQueries({ queryKey: ['commandRecords'] });
    },
    onError: (err: Error) => message.error(err.message),
  });

  const resultText = (r: number | null) =>
    r === 1 || r === 2 || r === 3 ? translate(`command.result.${r}`, i18n.language) : '-';
  const common = [
    { title: t('record.type'), dataIndex: 'type', key: 'type' },
    {
      title: t('record.content'),
      dataIndex: 'content',
      key: 'content',
      render: (c: string) => <Typography.Text code>{c}</Typography.Text>,
    },
    { title: t('record.mode'), key: 'mode', render: (_: unknown, r: CommandRecord) => <ModeTag mode={r.mode} /> },
    {
      title: t('record.status'),
      key: 'status',
      render: (_: unknown, r: CommandRecord) => <StatusTag status={r.status} />,
    },
  ];

  return (
    <>
      <Tabs
        items={[
          {
            key: 'records',
            label: t('tab.records'),
            children: (
              <Table<CommandRecord>
                rowKey="id"
                size="small"
                scroll={{ x: 'max-content' }}
                loading={records.isLoading}
                dataSource={records.data?.list ?? []}
                locale={{ emptyText: t('empty') }}
                data-testid="command-records"
                pagination={{
                  current: page.pageNum,
                  pageSize: page.pageSize,
                  total: records.data?.total ?? 0,
                  showSizeChanger: true,
                  pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
                  onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
                }}
                columns={[
                  ...common,
                  { title: t('record.result'), key: 'result', render: (_, r) => resultText(r.result) },
                  {
                    title: t('record.reply'),
                    dataIndex: 'reply',
                    key: 'reply',
                    render: (v: string | null, r) => <ReplyCell reply={v} oil={r.oil} />,
                  },
                  { title: t('record.sender'), dataIndex: 'sender', key: 'sender' },
                  { title: t('record.sendTime'), key: 'sendTime', render: (_, r) => time(r.sendTime ?? r.createdAt) },
                  { title: t('record.executeTime'), key: 'executeTime', render: (_, r) => time(r.executeTime) },
                  ...(recording
                    ? [
                        {
                          title: tr('recording'),
                          key: 'recording',
                          render: (_: unknown, r: CommandRecord) =>
                            (r.recordings ?? []).map((id) => (
                              <div key={id} data-testid={`command-recording-${r.id}`}>
                                <RecordingPlayer recording={{ id, mediaType: 1 }} />
                              </div>
                            )),
                        },
                      ]
                    : []),
                  {
                    title: t('record.log'),
                    key: 'log',
                    render: (_, r) => (
                      <Button type="link" size="small" onClick={() => setLogOf(r)}>
                        {t('record.showLog')}
                      </Button>
                    ),
                  },
                ]}
              />
            ),
          },
          ...(recording
            ? [
                {
                  key: 'recordings',
                  label: tr('tab'),
                  children: <DeviceRecordings terminalID={terminalID} />,
                },
              ]
            : []),
          {
            key: 'offline',
            label: t('tab.offline', { count: offline.data?.length ?? 0 }),
            children: (
              <Table<CommandRecord>
                rowKey="id"
                size="small"
                scroll={{ x: 'max-content' }}
                loading={offline.isLoading}
                dataSource={offline.data ?? []}
                locale={{ emptyText: t('offlineEmpty') }}
                pagination={false}
                data-testid="command-offline"
                columns={[
                  ...common,
                  { title: t('record.attempts'), dataIndex: 'attempts', key: 'attempts' },
                  { title: t('record.createdAt'), key: 'createdAt', render: (_, r) => time(r.createdAt) },
                  { title: t('record.expiresAt'), key: 'expiresAt', render: (_, r) => time(r.expiresAt) },
                  {
                    title: t('record.actions'),
                    key: 'actions',
                    render: (_, r) => (
                      <Popconfirm
                        title={t('confirmCancel')}
                        okText={t('ok')}
                        cancelText={t('cancel')}
                        onConfirm={() => cancel.mutateAsync(r.id)}
                      >
                        <Button type="link" size="small" danger>
                          {t('cancelOffline')}
                        </Button>
                      </Popconfirm>
                    ),
                  },
                ]}
              />
            ),
          },
        ]}
      />
      <Drawer
        open={logOf !== null}
        onClose={() => setLogOf(null)}
        title={logOf ? `${logOf.type} · ${logOf.content}` : ''}
        width={420}
      >
        <Timeline
          items={(log.data?.list ?? []).map((e) => ({
            children: (
              <div>
                <StatusTag status={e.status} /> {time(e.time)}
                {e.detail && <div style={{ color: '#888' }}>{e.detail}</div>}
              </div>
            ),
          }))}
        />
      </Drawer>
    </>
  );
}
