// Removal (spec §7 stock "out"): devices in stock (a device row without an owner) are delivered into an
// agent's account. The destination must be an agent account inside the caller's organisation: below the
// account the factory user belongs to (admin: any agent).
import { isAgent, isImeiLike, ROLES } from '@carhere/domain';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { type Caller, callerIsAdmin, findUser, type UserRow, userColumns } from '../agent/scope.ts';
import { deviceChanged } from '../device/events.ts';
import { lookupFacts } from './facts.ts';
import { type ImportOutcome, newOutcome, refuse } from './outcome.ts';

/** The path every destination must lie under: the caller's parent's subtree ('' for admin: everyone). */
export function organisationPath(caller: Pick<Caller, 'role' | 'path'>): string {
  if (callerIsAdmin(caller)) return '';
  const parts = caller.path.split('/').filter(Boolean);
  return parts.length > 1 ? `/${parts.slice(0, -1).join('/')}/` : caller.path;
}

export async function loadDestinationAgent(ctx: AppContext, caller: Caller, agentId: string): Promise<UserRow> {
  const agent = await findUser(ctx.db, agentId);
  const org = organisationPath(caller);
  if (!agent || !isAgent(agent.role) || !agent.path.startsWith(org)) throw new ApiError(400, 'stock.agentInvalid', 400);
  return agent;
}

/** Agents the caller may deliver to (for the Removal screen's picker). */
export async function destinationAgents(ctx: AppContext, caller: Caller, keyword: string): Promise<UserRow[]> {
  const org = organisationPath(caller);
  let q = ctx.db
    .selectFrom('users')
    .select(userColumns)
    .where('role', 'in', [ROLES.agent, ROLES.superAgent])
    .where('path', 'like', `${org}%`)
    .orderBy('username')
    .limit(50);
  if (keyword.trim()) q = q.where(sql<boolean>`lower(username) LIKE ${`%${keyword.trim().toLowerCase()}%`}`);
  return q.execute();
}

export async function stockOut(
  ctx: AppContext,
  caller: Caller,
  agent: UserRow,
  text: string,
  lang: string,
): Promise<ImportOutcome> {
  const out = newOutcome();
  const seen = new Set<string>();
  const lines: { line: number; imei: string }[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const imei = raw.trim();
    if (imei === '') return;
    if (!isImeiLike(imei)) refuse(out, lang, i + 1, imei, 'invalid');
    else if (seen.has(imei)) refuse(out, lang, i + 1, imei, 'duplicate');
    else {
      seen.add(imei);
      lines.push({ line: i + 1, imei });
    }
  });
  const facts = await lookupFacts(
    ctx,
    lines.map((l) => l.imei),
  );
  const ready: { line: number; imei: string }[] = [];
  for (const l of lines) {
    if (!facts.devices.has(l.imei)) refuse(out, lang, l.line, l.imei, 'notInStock');
    else if (facts.devices.get(l.imei) !== null) refuse(out, lang, l.line, l.imei, 'alreadyOut');
    else ready.push(l);
  }
  if (ready.length === 0) return out;
  const imeis = ready.map((l) => l.imei);
  const moved = await ctx.db.transaction().execute(async (trx) => {
    const rows = await sql<{ id: string; terminal_id: string }>`
      UPDATE devices SET user_id = ${agent.id}, updated_at = now()
      WHERE terminal_id = ANY(${imeis}::text[]) AND user_id IS NULL
      RETURNING id, terminal_id`.execute(trx);
    const got = rows.rows.map((r) => r.terminal_id);
    if (got.length > 0) {
      await trx
        .insertInto('device_ownership_log')
        .values(
          rows.rows.map((r) => ({
            device_id: r.id,
            action: 'sale' as const,
            from_user_id: null,
            to_user_id: agent.id,
            operator_id: caller.id,
          })),
        )
        .execute();
      await sql`
        INSERT INTO stock_records (imei, out_at, agent_id, in_at)
        SELECT imei, now(), ${agent.id}, now() FROM unnest(${got}::text[]) AS t(imei)
        ON CONFLICT (imei) DO UPDATE SET out_at = now(), agent_id = EXCLUDED.agent_id,
          in_at = coalesce(stock_records.in_at, EXCLUDED.in_at)`.execute(trx);
    }
    return new Set(got);
  });
  for (const l of ready) {
    if (moved.has(l.imei)) out.success++;
    else refuse(out, lang, l.line, l.imei, 'alreadyOut');
  }
  deviceChanged(ctx, { terminalIDs: [...moved] });
  return out;
}
