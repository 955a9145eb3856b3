// The stock list (spec §7 stock: stockDevice): stock records with their derived state (the domain's StockState,
// derived here in SQL: no device row = unused, no owner = in, an owner = out) and the latest QC verdict.
import type { StockState } from '@carhere/domain';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';

export interface StockFilter {
  imei?: string;
  model?: string;
  batch?: string;
  state?: StockState;
  pageNum: number;
  pageSize: number;
}

export interface StockItem {
  imei: string;
  model: string;
  batch: string;
  iccid: string;
  preset: boolean;
  state: StockState;
  qcPass: boolean | null;
  inAt: string | null;
  outAt: string | null;
  agentId: string | null;
  agentName: string | null;
  createdAt: string;
}

const STATE_SQL = sql<StockState>`CASE WHEN d.id IS NULL THEN 'unused' WHEN d.user_id IS NULL THEN 'in' ELSE 'out' END`;

export async function findStock(ctx: AppContext, f: StockFilter): Promise<{ total: number; list: StockItem[] }> {
  const where = [sql`true`];
  if (f.imei) where.push(sql`s.imei LIKE ${`${f.imei.replace(/[%_\\]/g, '')}%`}`);
  if (f.model) where.push(sql`lower(s.model) = ${f.model.toLowerCase()}`);
  if (f.batch) where.push(sql`s.batch = ${f.batch}`);
  if (f.state === 'unused') where.push(sql`d.id IS NULL`);
  if (f.state === 'in') where.push(sql`d.id IS NOT NULL AND d.user_id IS NULL`);
  if (f.state === 'out') where.push(sql`d.user_id IS NOT NULL`);
  const cond = sql.join(where, sql` AND `);
  const total = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM stock_records s LEFT JOIN devices d ON d.terminal_id = s.imei WHERE ${cond}`.execute(
    ctx.db,
  );
  const rows = await sql<{
    imei: string;
    model: string;
    batch: string;
    iccid: string;
    preset: boolean;
    state: StockState;
    qc_pass: boolean | null;
    in_at: Date | null;
    out_at: Date | null;
    agent_id: string | null;
    agent_name: string | null;
    created_at: Date;
  }>`
    SELECT s.imei, s.model, s.batch, coalesce(nullif(d.iccid, ''), s.iccid) AS iccid, s.preset, ${STATE_SQL} AS state,
      (SELECT q.pass FROM qc_results q WHERE q.imei = s.imei ORDER BY q.tested_at DESC, q.id DESC LIMIT 1) AS qc_pass,
      s.in_at, s.out_at, coalesce(d.user_id, s.agent_id) AS agent_id, u.username AS agent_name, s.created_at
    FROM stock_records s
    LEFT JOIN devices d ON d.terminal_id = s.imei
    LEFT JOIN users u ON u.id = coalesce(d.user_id, s.agent_id)
    WHERE ${cond}
    ORDER BY s.created_at DESC, s.imei
    LIMIT ${f.pageSize} OFFSET ${(f.pageNum - 1) * f.pageSize}`.execute(ctx.db);
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    total: total.rows[0]?.n ?? 0,
    list: rows.rows.map((r) => ({
      imei: r.imei,
      model: r.model,
      batch: r.batch,
      iccid: r.iccid,
      preset: r.preset,
      state: r.state,
      qcPass: r.qc_pass,
      inAt: iso(r.in_at),
      outAt: iso(r.out_at),
      agentId: r.agent_id,
      agentName: r.agent_name,
      createdAt: r.created_at.toISOString(),
    })),
  };
}
