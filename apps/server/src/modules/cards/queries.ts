// SIM card search, check (match cards to the ICCID devices report), clear and numbers by IMEI (spec §7 /card).
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { CardState } from '../../db/tables/factoryProd.ts';

export interface CardFilter {
  iccid?: string;
  msisdn?: string;
  imsi?: string;
  imei?: string;
  operator?: string;
  state?: CardState;
  bound?: boolean;
}

export interface CardItem {
  iccid: string;
  imsi: string;
  msisdn: string;
  operator: string;
  plan: string;
  activatedOn: string | null;
  expiresOn: string | null;
  state: CardState;
  imei: string | null;
  boundAt: string | null;
  /** The ICCID the bound device reports ('' none); differs from iccid on a mismatch. */
  reportedIccid: string;
}

const like = (v: string) => `${v.replace(/[%_\\]/g, '')}%`;

function whereOf(f: CardFilter) {
  const w = [sql`true`];
  if (f.iccid) w.push(sql`c.iccid LIKE ${like(f.iccid)}`);
  if (f.msisdn) w.push(sql`c.msisdn LIKE ${like(f.msisdn)}`);
  if (f.imsi) w.push(sql`c.imsi LIKE ${like(f.imsi)}`);
  if (f.imei) w.push(sql`c.imei LIKE ${like(f.imei)}`);
  if (f.operator) w.push(sql`c.operator = ${f.operator}`);
  if (f.state) w.push(sql`c.state = ${f.state}`);
  if (f.bound === true) w.push(sql`c.imei IS NOT NULL`);
  if (f.bound === false) w.push(sql`c.imei IS NULL`);
  return sql.join(w, sql` AND `);
}

interface CardDbRow {
  iccid: string;
  imsi: string;
  msisdn: string;
  operator: string;
  plan: string;
  activated_on: string | null;
  expires_on: string | null;
  state: CardState;
  imei: string | null;
  bound_at: Date | null;
  reported: string | null;
}

const present = (r: CardDbRow): CardItem => ({
  iccid: r.iccid,
  imsi: r.imsi,
  msisdn: r.msisdn,
  operator: r.operator,
  plan: r.plan,
  activatedOn: r.activated_on,
  expiresOn: r.expires_on,
  state: r.state,
  imei: r.imei,
  boundAt: r.bound_at ? r.bound_at.toISOString() : null,
  reportedIccid: r.reported ?? '',
});

export async function findCards(
  ctx: AppContext,
  f: CardFilter,
  page: { pageNum: number; pageSize: number },
): Promise<{ total: number; list: CardItem[] }> {
  const cond = whereOf(f);
  const total = await sql<{ n: number }>`SELECT count(*)::int AS n FROM sim_cards c WHERE ${cond}`.execute(ctx.db);
  const rows = await sql<CardDbRow>`
    SELECT c.iccid, c.imsi, c.msisdn, c.operator, c.plan, to_char(c.activated_on, 'YYYY-MM-DD') AS activated_on,
      to_char(c.expires_on, 'YYYY-MM-DD') AS expires_on, c.state, c.imei, c.bound_at, d.iccid AS reported
    FROM sim_cards c LEFT JOIN devices d ON d.terminal_id = c.imei
    WHERE ${cond} ORDER BY c.updated_at DESC, c.iccid
    LIMIT ${page.pageSize} OFFSET ${(page.pageNum - 1) * page.pageSize}`.execute(ctx.db);
  return { total: total.rows[0]?.n ?? 0, list: rows.rows.map(present) };
}

export type MismatchKind = 'mismatch' | 'unknownCard' | 'notReported';

export interface Mismatch {
  kind: MismatchKind;
  imei: string;
  /** The card bound to the device ('' none). */
  cardIccid: string;
  /** The ICCID the device reports ('' none). */
  reportedIccid: string;
  msisdn: string;
}

/**
 * Brings devices.iccid and the cards in step with what devices report (device_state.attributes.iccid; the
 * database trigger does this as reports arrive, this catches rows written before it), then lists the
 * mismatches: a card bound to a device that reports another ICCID, a reported ICCID with no card, a bound
 * card whose device has reported none.
 */
export async function checkCards(
  ctx: AppContext,
  imeis: readonly string[] | undefined,
  page: { pageNum: number; pageSize: number },
): Promise<{ synced: number; total: number; list: Mismatch[] }> {
  const only = imeis && imeis.length > 0 ? sql`AND d.terminal_id = ANY(${[...imeis]}::text[])` : sql``;
  const synced = await ctx.db.transaction().execute(async (trx) => {
    const updated = await sql<{ terminal_id: string; iccid: string }>`
      UPDATE devices d SET iccid = r.iccid, updated_at = now()
      FROM (SELECT device_id, upper(regexp_replace(btrim(attributes->>'iccid'), '[Ff]$', '')) AS iccid
            FROM device_state WHERE attributes ? 'iccid') r
      WHERE d.id = r.device_id AND r.iccid <> '' AND d.iccid <> r.iccid ${only}
      RETURNING d.terminal_id, d.iccid`.execute(trx);
    const bound = await sql`
      UPDATE sim_cards c SET imei = d.terminal_id, bound_at = now(), updated_at = now()
      FROM devices d WHERE d.iccid <> '' AND c.iccid = d.iccid AND c.imei IS DISTINCT FROM d.terminal_id ${only}`.execute(
      trx,
    );
    return updated.rows.length + Number(bound.numAffectedRows ?? 0);
  });
  const onlyCard = imeis && imeis.length > 0 ? sql`AND c.imei = ANY(${[...imeis]}::text[])` : sql``;
  const mismatches = sql<Mismatch>`
    SELECT 'mismatch' AS kind, d.terminal_id AS imei, c.iccid AS "cardIccid", d.iccid AS "reportedIccid", c.msisdn
      FROM sim_cards c JOIN devices d ON d.terminal_id = c.imei
      WHERE d.iccid <> '' AND d.iccid <> c.iccid ${onlyCard}
    UNION ALL
    SELECT 'notReported', d.terminal_id, c.iccid, '', c.msisdn
      FROM sim_cards c JOIN devices d ON d.terminal_id = c.imei
      WHERE d.iccid = '' ${onlyCard}
    UNION ALL
    SELECT 'unknownCard', d.terminal_id, '', d.iccid, ''
      FROM devices d WHERE d.iccid <> '' ${only} AND NOT EXISTS (SELECT 1 FROM sim_cards c WHERE c.iccid = d.iccid)`;
  const total = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${mismatches}) m`.execute(ctx.db);
  const rows = await sql<Mismatch>`SELECT * FROM (${mismatches}) m ORDER BY imei, kind
    LIMIT ${page.pageSize} OFFSET ${(page.pageNum - 1) * page.pageSize}`.execute(ctx.db);
  return { synced, total: total.rows[0]?.n ?? 0, list: rows.rows };
}

/**
 * Clear: the named cards (or the cards of the named devices) are unbound; the device forgets the ICCID it
 * knew (devices.iccid and the reported attribute), so the next report binds afresh.
 */
export async function clearCards(
  ctx: AppContext,
  iccids: readonly string[],
  imeis: readonly string[],
): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const cards = await sql<{ iccid: string }>`
      UPDATE sim_cards SET imei = NULL, bound_at = NULL, updated_at = now()
      WHERE imei IS NOT NULL AND (iccid = ANY(${[...iccids]}::text[]) OR imei = ANY(${[...imeis]}::text[]))
      RETURNING iccid`.execute(trx);
    const devices = await sql<{ id: string }>`
      UPDATE devices SET iccid = '', updated_at = now()
      WHERE terminal_id = ANY(${[...imeis]}::text[]) OR (iccid <> '' AND iccid = ANY(${[...iccids, ...cards.rows.map((c) => c.iccid)]}::text[]))
      RETURNING id`.execute(trx);
    const ids = devices.rows.map((d) => d.id);
    if (ids.length > 0) {
      await sql`UPDATE device_state SET attributes = attributes - 'iccid' WHERE device_id = ANY(${ids}::bigint[])`.execute(
        trx,
      );
    }
    return cards.rows.length;
  });
}

export interface CardNumber {
  imei: string;
  iccid: string;
  msisdn: string;
  imsi: string;
  operator: string;
  expiresOn: string | null;
}

/** Card numbers of devices (the device's ICCID, else the card bound to it). */
export async function cardNumbers(ctx: AppContext, imeis: readonly string[]): Promise<CardNumber[]> {
  if (imeis.length === 0) return [];
  const rows = await sql<CardNumber>`
    SELECT d.terminal_id AS imei, coalesce(c.iccid, nullif(d.iccid, ''), '') AS iccid, coalesce(c.msisdn, d.sim, '') AS msisdn,
      coalesce(c.imsi, '') AS imsi, coalesce(c.operator, '') AS operator, to_char(c.expires_on, 'YYYY-MM-DD') AS "expiresOn"
    FROM devices d
    LEFT JOIN LATERAL (SELECT * FROM sim_cards s WHERE s.iccid = d.iccid OR s.imei = d.terminal_id
                       ORDER BY (s.iccid = d.iccid) DESC LIMIT 1) c ON true
    WHERE d.terminal_id = ANY(${[...imeis]}::text[])
    ORDER BY d.terminal_id`.execute(ctx.db);
  return rows.rows;
}
