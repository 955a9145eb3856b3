// Polls an import job until it ends (imports run in the background on the server and report progress).
import { useQuery } from '@tanstack/react-query';
import type { Job } from './api.ts';

export const JOB_POLL_MS = 400;

export function useJob<R>(key: string, id: string | null, fetchJob: (id: string) => Promise<Job<R>>) {
  return useQuery({
    queryKey: ['job', key, id],
    queryFn: () => fetchJob(id as string),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 'running' ? false : JOB_POLL_MS),
  });
}

/** Progress in percent (0 when nothing is known yet, 100 when the job has no rows). */
export function percentOf(job: Pick<Job<unknown>, 'total' | 'processed' | 'status'> | undefined): number {
  if (!job) return 0;
  if (job.status !== 'running' || job.total === 0) return 100;
  return Math.min(100, Math.floor((job.processed / job.total) * 100));
}
