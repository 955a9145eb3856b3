// countExport: any statistics answer as an .xlsx file, written by a job on the queue with exceljs's streaming
// writer (XlsxRowWriter: rows are committed as they are written and the writer waits for the file to take
// them, so memory stays flat however many rows there are; daily rows are read DEVICE_CHUNK devices at a time),
// with progress, within the export limits (devices and days per export).
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { neutraliseCell, statColumnLabel } from '@carhere/domain';
import type { AppContext } from '../../context.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { type DailyRecord, loadDaily } from './daily.ts';
import { EXPORT_COLUMNS, type ExportKind } from './export-kinds.ts';
import { placesIn, withStayAddresses, withTripAddresses } from './places.ts';
import { alarmCounts, battery, fenceVisits, findAllMileage, findByUserIds, pastDue, stays, trips } from './queries.ts';
import { selectDevices } from './select.ts';
import { XlsxRowWriter } from './xlsx-rows.ts';

export const EXPORT_JOB = 'stats.export';
/** Devices read per round when exporting daily rows (keeps memory flat). */
const DEVICE_CHUNK = 100;

/**
 * A cell as text or number, neutralised against formula injection by the domain's neutraliseCell (text
 * starting with = + - @ or a tab / CR gets a leading apostrophe so spreadsheet programs show it as text).
 */
export function safeCell(v: unknown): string | number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return neutraliseCell(String(v));
}

export function exportDirOf(ctx: AppContext): string {
  const dir =
    ctx.config.exportDir ??
    (ctx.config.dataDir && !ctx.config.dataDir.startsWith('memory:') && ctx.dbHandle.kind === 'pglite'
      ? join(ctx.config.dataDir, 'exports')
      : join(tmpdir(), 'carhere-exports'));
  mkdirSync(dir, { recursive: true });
  return dir;
}

interface ExportJobData {
  exportId: string;
}

interface Caller {
  id: string;
  role: number;
  path: string;
  lang: string;
}

async function rowsOf(
  ctx: AppContext,
  caller: Caller,
  kind: ExportKind,
  params: Record<string, unknown>,
  write: (row: Record<string, unknown>) => Promise<void>,
  progress: (fraction: number) => Promise<void>,
): Promise<void> {
  const p = params as never;
  const each = async (rows: object[]) => {
    for (const r of rows) await write(r as Record<string, unknown>);
  };
  switch (kind) {
    case 'find': {
      const q = params as { startTime: number; endTime: number };
      const devices = await selectDevices(ctx, caller, p);
      for (let i = 0; i < devices.length; i += DEVICE_CHUNK) {
        const chunk: DailyRecord[] = await loadDaily(
          ctx.dbHandle.pool,
          devices.slice(i, i + DEVICE_CHUNK),
          q.startTime,
          q.endTime,
        );
        await each(chunk);
        await progress(Math.min(1, (i + DEVICE_CHUNK) / Math.max(1, devices.length)) * 0.99);
      }
      return;
    }
    case 'findAllMileage':
      return each(await findAllMileage(ctx, caller, p));
    case 'findByUserIds':
      return each(await findByUserIds(ctx, caller, p));
    case 'stays':
      return each(withStayAddresses(await stays(ctx, caller, p), await placesIn(caller.lang)));
    case 'trips':
      return each(withTripAddresses(await trips(ctx, caller, p), await placesIn(caller.lang)));
    case 'fenceVisits':
      return each(await fenceVisits(ctx, caller, p));
    case 'alarms':
      return each((await alarmCounts(ctx, caller, p)).counts);
    case 'pastDue':
      return each(await pastDue(ctx, caller, p));
    case 'battery':
      return each(await battery(ctx, caller, p));
  }
}

/** Runs one export: the rows of its kind into an .xlsx file, progress on the way. */
export async function runExport(ctx: AppContext, exportId: string, progress: (f: number) => Promise<void>) {
  const row = await ctx.db
    .selectFrom('stat_exports as e')
    .innerJoin('users as u', 'u.id', 'e.user_id')
    .select(['e.id', 'e.kind', 'e.params', 'u.id as user_id', 'u.role', 'u.path', 'u.lang'])
    .where('e.id', '=', exportId)
    .executeTakeFirst();
  if (!row) return;
  await ctx.db.updateTable('stat_exports').set({ state: 'running' }).where('id', '=', exportId).execute();
  const kind = row.kind as ExportKind;
  const columns = EXPORT_COLUMNS[kind];
  const file = join(exportDirOf(ctx), `stat-${exportId}.xlsx`);
  let count = 0;
  try {
    const sheet = new XlsxRowWriter(file, kind);
    await sheet.add(columns.map((c) => statColumnLabel(c.field, row.lang)));
    const caller = { id: String(row.user_id), role: row.role, path: row.path, lang: row.lang };
    await rowsOf(
      ctx,
      caller,
      kind,
      row.params,
      async (r) => {
        await sheet.add(columns.map((c) => safeCell(r[c.field])));
        count++;
      },
      progress,
    );
    await sheet.finish();
    await ctx.db
      .updateTable('stat_exports')
      .set({ state: 'done', rows: count, file, finished_at: new Date() })
      .where('id', '=', exportId)
      .execute();
  } catch (err) {
    await ctx.db
      .updateTable('stat_exports')
      .set({ state: 'failed', error: err instanceof Error ? err.message : String(err), finished_at: new Date() })
      .where('id', '=', exportId)
      .execute();
  }
}

export async function registerExportJob(ctx: AppContext, jobs: JobQueue): Promise<void> {
  await jobs.work<ExportJobData>(EXPORT_JOB, async (job) => {
    await runExport(ctx, job.data.exportId, (f) => job.progress(f));
  });
}
