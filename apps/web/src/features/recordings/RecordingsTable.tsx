// One table for recordings (the command screen's tab and the test role's tape download): time, length, size,
// the command that asked for it, a player and a download link.
import { DownloadOutlined } from '@ant-design/icons';
import { Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { formatLength, type Recording, recordingUrl } from './api.ts';

export function RecordingPlayer({ recording }: { recording: Pick<Recording, 'id' | 'mediaType'> }) {
  const { t } = useTranslation('recordings');
  if (recording.mediaType !== 1) {
    return (
      <a href={recordingUrl(recording.id)} target="_blank" rel="noreferrer">
        {t('open')}
      </a>
    );
  }
  return (
    <audio
      controls
      preload="none"
      src={recordingUrl(recording.id)}
      style={{ height: 32, width: 240 }}
      data-testid={`recording-audio-${recording.id}`}
    />
  );
}

export function RecordingsTable({
  rows,
  total,
  loading,
  page,
  onPage,
  showImei = false,
}: {
  rows: Recording[];
  total: number;
  loading: boolean;
  page: { pageNum: number; pageSize: number };
  onPage: (pageNum: number, pageSize: number) => void;
  showImei?: boolean;
}) {
  const { t } = useTranslation('recordings');
  return (
    <Table<Recording>
      rowKey="id"
      size="small"
      scroll={{ x: 'max-content' }}
      loading={loading}
      dataSource={rows}
      locale={{ emptyText: t('empty') }}
      data-testid="recordings-table"
      pagination={{ current: page.pageNum, pageSize: page.pageSize, total, onChange: onPage }}
      columns={[
        ...(showImei ? [{ title: 'IMEI', dataIndex: 'terminalID', key: 'terminalID' }] : []),
        {
          title: t('time'),
          key: 'time',
          render: (_: unknown, r: Recording) => (
            <span style={{ whiteSpace: 'nowrap' }}>{dayjs(r.time).format('YYYY-MM-DD HH:mm:ss')}</span>
          ),
        },
        { title: t('length'), key: 'length', render: (_, r) => formatLength(r.durationMs) },
        { title: t('size'), key: 'size', render: (_, r) => `${(r.size / 1024).toFixed(1)} KB` },
        {
          title: t('command'),
          key: 'command',
          render: (_, r) =>
            r.command ? (
              <span>
                {r.commandType} <Typography.Text code>{r.command}</Typography.Text>
              </span>
            ) : (
              <Typography.Text type="secondary">
                {t(`event.${r.event}`, { defaultValue: t('event.other') })}
              </Typography.Text>
            ),
        },
        { title: t('play'), key: 'play', render: (_, r) => <RecordingPlayer recording={r} /> },
        {
          title: t('download'),
          key: 'download',
          render: (_, r) => (
            <a href={recordingUrl(r.id, true)} download data-testid={`recording-download-${r.id}`}>
              <DownloadOutlined /> {t('download')}
            </a>
          ),
        },
      ]}
    />
  );
}
