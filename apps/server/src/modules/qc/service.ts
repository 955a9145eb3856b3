// QC results (spec §7 serials, test results): criteria per model, results judged on arrival by the domain's
// judgeQc, and the search the QC screens and the export share.
import { judgeQc, type QcCriteria, type SerialKind, type SerialResult } from '@carhere/domain';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';

export async function criteriaByModel(ctx: AppContext): Promise<Map<string, QcCriteria>> {
  const rows = await ctx.db.selectFrom('qc_criteria').selectAll().execute();
  return new Map(
    rows.map((r) => [
      r.model.toLowerCase(),
      { model: r.model, minSatellites: r.min_satellites, minCn0: r.min_cn0, minGsm: r.min_gsm, firmware: r.firmware },
    ]),
  );
}

export interface RecordOutcome {
  accepted: number;
  passed: number;
  failed: number;
  results: { imei: string; pass: boolean; failures: string[] }[];
}

const CHUNK = 5000;

/** Judges and stores results; answers each verdict (the station shows it to the line worker). */
export async function recordResults(
  ctx: AppContext,
  kind: SerialKind,
  results: readonly SerialResult[],
): Promise<RecordOutcome> {
  const criteria = await criteriaByModel(ctx);
  const out: RecordOutcome = { accepted: 0, passed: 0, failed: 0, results: [] };
  for (let i = 0; i < results.length; i += CHUNK) {
    const chunk = results.slice(i, i + CHUNK);
    const verdicts = chunk.map((r) =>
      judgeQc(
        { satellites: r.satellites, cn0: r.cn0, gsm: r.gsm, firmware: r.firmware, stationPass: r.stationPass },
        criteria.get(r.model.toLowerCase()) ?? null,
      ),
    );
    const col = <K extends keyof SerialResult>(k: K) => chunk.map((r) => r[k]);
    const tested = chunk.map((r) => new Date(r.testedAt ?? Date.now()).toISOString());
    await sql`
      INSERT INTO qc_results (kind, imei, model, batch, station, firmware, gsm, satellites, cn0, ttff, station_pass, pass, failures, tested_at)
      SELECT ${kind}, u.imei, u.model, u.batch, u.station, u.firmware, u.gsm, u.sats, u.cn0, u.ttff, u.sp, u.pass, u.failures::jsonb, u.tested
      FROM unnest(${col('imei')}::text[], ${col('model')}::text[], ${col('batch')}::text[], ${col('station')}::text[],
        ${col('firmware')}::text[], ${col('gsm')}::real[], ${col('satellites')}::smallint[], ${col('cn0')}::real[],
        ${col('ttff')}::real[], ${col('stationPass')}::boolean[], ${verdicts.map((v) => v.pass)}::boolean[],
        ${verdicts.map((v) => JSON.stringify(v.failures))}::text[], ${tested}::timestamptz[])
        AS u(imei, model, batch, station, firmware, gsm, sats, cn0, ttff, sp, pass, failures, tested)`.execute(ctx.db);
    chunk.forEach((r, j) => {
      const v = verdicts[j];
      out.accepted++;
      if (v.pass) out.passed++;
      else out.failed++;
      out.results.push({ imei: r.imei, pass: v.pass, failures: v.failures });
    });
  }
  return out;
}

export interface QcFilter {
  kind?: SerialKind;
  imei?: string;
  batch?: string;
  from?: string;
  to?: string;
  pass?: boolean;
}

export interface QcItem {
  id: string;
  kind: SerialKind;
  imei: string;
  model: string;
  batch: string;
  station: string;
  firmware: string | null;
  gsm: number | null;
  satellites: number | null;
  cn0: number | null;
  ttff: number | null;
  stationPass: boolean | null;
  pass: boolean;
  failures: string[];
  testedAt: string;
}

/** Counting stops here: a search that matches more says "more than" rather than scanning everything. */
export const QC_COUNT_CAP = 10_000;

function whereOf(f: QcFilter) {
  const w = [sql`true`];
  if (f.kind) w.push(sql`kind = ${f.kind}`);
  if (f.imei) w.push(sql`imei LIKE ${`${f.imei.replace(/[%_\\]/g, '')}%`}`);
  if (f.batch) w.push(sql`batch = ${f.batch}`);
  if (f.from) w.push(sql`tested_at >= ${new Date(f.from)}`);
  if (f.to) w.push(sql`tested_at < ${new Date(f.to)}`);
  if (f.pass !== undefined) w.push(sql`pass = ${f.pass}`);
  return sql.join(w, sql` AND `);
}

export async function searchQc(
  ctx: AppContext,
  f: QcFilter,
  page: { pageNum: number; pageSize: number },
): Promise<{ total: number; more: boolean; list: QcItem[] }> {
  const cond = whereOf(f);
  const [count, rows] = await Promise.all([
    sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM (SELECT 1 FROM qc_results WHERE ${cond} LIMIT ${QC_COUNT_CAP + 1}) t`.execute(
      ctx.db,
    ),
    sql<{
      id: string;
      kind: SerialKind;
      imei: string;
      model: string;
      batch: string;
      station: string;
      firmware: string | null;
      gsm: number | null;
      satellites: number | null;
      cn0: number | null;
      ttff: number | null;
      station_pass: boolean | null;
      pass: boolean;
      failures: string[];
      tested_at: Date;
    }>`SELECT id, kind, imei, model, batch, station, firmware, gsm, satellites, cn0, ttff, station_pass, pass, failures, tested_at
       FROM qc_results WHERE ${cond} ORDER BY tested_at DESC, id DESC
       LIMIT ${page.pageSize} OFFSET ${(page.pageNum - 1) * page.pageSize}`.execute(ctx.db),
  ]);
  const n = count.rows[0]?.n ?? 0;
  return {
    total: Math.min(n, QC_COUNT_CAP),
    more: n > QC_COUNT_CAP,
    list: rows.rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      imei: r.imei,
      model: r.model,
      batch: r.batch,
      station: r.station,
      firmware: r.firmware,
      gsm: r.gsm,
      satellites: r.satellites,
      cn0: r.cn0,
      ttff: r.ttff,
      stationPass: r.station_pass,
      pass: r.pass,
      failures: r.failures,
      testedAt: r.tested_at.toISOString(),
    })),
  };
}
