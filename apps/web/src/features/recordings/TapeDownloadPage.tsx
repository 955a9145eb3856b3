// /test/tapeDownload (spec §6 factory:tape_download): the recordings of the whole fleet by IMEI (or its start)
// and time, to play and download.
import { Button, DatePicker, Input, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Recording, searchTapes } from './api.ts';
import { RecordingsTable } from './RecordingsTable.tsx';

export default function TapeDownloadPage() {
  const { t } = useTranslation('recordings');
  const [imei, setImei] = useState('');
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const [rows, setRows] = useState<{ total: number; list: Recording[] }>({ total: 0, list: [] });
  const [loading, setLoading] = useState(false);
  const search = async (p = page) => {
    setPage(p);
    setLoading(true);
    try {
      setRows(
        await searchTapes({
          ...p,
          terminalID: imei.trim() || undefined,
          startTime: range?.[0]?.valueOf(),
          endTime: range?.[1]?.valueOf(),
        }),
      );
    } finally {
      setLoading(false);
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: first load only
  useEffect(() => {
    void search();
  }, []);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="tape-download-page">
      <Space wrap>
        <Input
          placeholder="IMEI"
          value={imei}
          onChange={(e) => setImei(e.target.value)}
          onPressEnter={() => void search({ ...page, pageNum: 1 })}
          style={{ width: 220 }}
          data-testid="tape-imei"
        />
        <DatePicker.RangePicker showTime value={range} onChange={(v) => setRange(v)} />
        <Button type="primary" onClick={() => void search({ ...page, pageNum: 1 })} data-testid="tape-search">
          {t('search')}
        </Button>
      </Space>
      <RecordingsTable
        rows={rows.list}
        total={rows.total}
        loading={loading}
        page={page}
        onPage={(pageNum, pageSize) => void search({ pageNum, pageSize })}
        showImei
      />
    </Space>
  );
}
