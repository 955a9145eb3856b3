// The command screen's "Recordings" tab: what the selected device uploaded, newest first, refreshed while open
// (a recording arrives some seconds after its record-audio command is answered).
import { DEFAULT_PAGE_SIZE } from '@carhere/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { findRecordings } from './api.ts';
import { RecordingsTable } from './RecordingsTable.tsx';

const REFRESH_MS = 5000;

export function DeviceRecordings({ terminalID }: { terminalID: string }) {
  const [page, setPage] = useState({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE });
  const list = useQuery({
    queryKey: ['recordings', terminalID, page],
    queryFn: ({ signal }) => findRecordings(terminalID, page, signal),
    refetchInterval: REFRESH_MS,
  });
  return (
    <RecordingsTable
      rows={list.data?.list ?? []}
      total={list.data?.total ?? 0}
      loading={list.isLoading}
      page={page}
      onPage={(pageNum, pageSize) => setPage({ pageNum, pageSize })}
    />
  );
}
