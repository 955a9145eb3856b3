// Import quotas (spec §5, §6): users.import_quota is what an agent may still import or hand down. A superior
// gives quota out of its own remainder (the administrator's is unlimited) and may take unused quota back;
// imports consume it. Every change is a row in import_quota_records with the balance after it.
import { hasQuotaFor, isAgent, ROLES } from '@carhere/domain';
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import type { QuotaRecordKind } from '../../db/tables/accounts.ts';
import { ApiError, noPermission } from '../../http/errors.ts';
import { enforce } from '../agent/rules.ts';
import { type Caller, callerIsAdmin, loadReachableUser, loadSubordinate } from '../agent/scope.ts';

type Trx = Transaction<Database>;

export interface QuotaSummary {
  userId: string;
  /** True for the administrator, who imports without a quota. */
  unlimited: boolean;
  remaining: number;
  /** Received from superiors (net of what they took back). */
  received: number;
  /** Handed to subordinates (net of what was taken back). */
  given: number;
  /** Devices imported. */
  used: number;
}

async function record(
  trx: Trx,
  userId: string,
  kind: QuotaRecordKind,
  amount: number,
  balance: number,
  counterpartId: string | null,
  operatorId: string,
  note = '',
): Promise<void> {
  await trx
    .insertInto('import_quota_records')
    .values({ user_id: userId, kind, amount, balance, counterpart_id: counterpartId, operator_id: operatorId, note })
    .execute();
}

/** Adds `amount` (may be negative) to a remainder; refuses when it would go below zero. */
async function adjust(trx: Trx, userId: string, amount: number): Promise<number> {
  const row = await trx
    .updateTable('users')
    .set((eb) => ({ import_quota: eb('import_quota', '+', amount) }))
    .where('id', '=', userId)
    .where('import_quota', '>=', -amount)
    .returning('import_quota')
    .executeTakeFirst();
  if (!row) throw new ApiError(400, 'quota.remainingInsufficient', 400);
  return row.import_quota;
}

/**
 * Gives `amount` imports to an agent below the caller out of the source's remainder (the caller's by default,
 * or another agent of the caller's subtree: a quota transfer), or with a negative amount takes unused imports
 * back from the target to the source. The administrator's remainder is unlimited. Answers the target's new
 * remainder.
 */
export async function giveQuota(
  ctx: AppContext,
  caller: Caller,
  targetId: string,
  amount: number,
  sourceId: string = caller.id,
): Promise<number> {
  if (!Number.isSafeInteger(amount) || amount === 0) throw new ApiError(400, 'validation.number', 400);
  const target = await loadSubordinate(ctx, caller, targetId);
  const source = await loadReachableUser(ctx, caller, sourceId);
  if (source.id === target.id) throw new ApiError(400, 'account.transferToSelf', 400);
  if (!isAgent(target.role) || !(isAgent(source.role) || source.role === ROLES.admin)) throw noPermission();
  const unlimited = source.role === ROLES.admin;
  return ctx.db.transaction().execute(async (trx) => {
    if (amount > 0) {
      if (!unlimited) {
        const left = await adjust(trx, source.id, -amount);
        await record(trx, source.id, 'give', -amount, left, target.id, caller.id);
      }
      const balance = await adjust(trx, target.id, amount);
      await record(trx, target.id, 'grant', amount, balance, source.id, caller.id);
      return balance;
    }
    const back = -amount;
    const balance = await adjust(trx, target.id, -back);
    await record(trx, target.id, 'revoke', -back, balance, source.id, caller.id);
    if (!unlimited) {
      const mine = await adjust(trx, source.id, back);
      await record(trx, source.id, 'reclaim', back, mine, target.id, caller.id);
    }
    return balance;
  });
}

/** The administrator sets an agent's remainder outright. */
export async function setQuota(ctx: AppContext, caller: Caller, targetId: string, value: number): Promise<number> {
  if (!callerIsAdmin(caller)) throw noPermission();
  if (!Number.isSafeInteger(value) || value < 0) throw new ApiError(400, 'validation.minValue', 400, { min: 0 });
  const target = await loadSubordinate(ctx, caller, targetId);
  return ctx.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('users')
      .select('import_quota')
      .where('id', '=', target.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    await trx.updateTable('users').set({ import_quota: value }).where('id', '=', target.id).execute();
    await record(trx, target.id, 'set', value - before.import_quota, value, null, caller.id);
    return value;
  });
}

/**
 * Consumes quota for an import of `count` devices inside the import's transaction (the administrator
 * imports without quota). Refuses with the spec's message when not enough imports are left.
 */
export async function consumeQuota(trx: Trx, caller: Caller, count: number, note: string): Promise<void> {
  if (callerIsAdmin(caller) || count === 0) return;
  const row = await trx
    .selectFrom('users')
    .select('import_quota')
    .where('id', '=', caller.id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  enforce(hasQuotaFor(row.import_quota, count));
  const left = await adjust(trx, caller.id, -count);
  await record(trx, caller.id, 'import', -count, left, null, caller.id, note);
}

/** The remainder an account has now (Infinity for the administrator). */
export async function remainingQuota(ctx: AppContext, caller: Caller): Promise<number> {
  if (callerIsAdmin(caller)) return Number.POSITIVE_INFINITY;
  const row = await ctx.db
    .selectFrom('users')
    .select('import_quota')
    .where('id', '=', caller.id)
    .executeTakeFirstOrThrow();
  return row.import_quota;
}

export async function quotaSummary(ctx: AppContext, caller: Caller, userId: string): Promise<QuotaSummary> {
  const user = await loadReachableUser(ctx, caller, userId);
  const sums = await ctx.db
    .selectFrom('import_quota_records')
    .select([
      sql<number>`coalesce(sum(amount) filter (where kind in ('grant', 'revoke')), 0)::int`.as('received'),
      sql<number>`coalesce(-sum(amount) filter (where kind in ('give', 'reclaim')), 0)::int`.as('given'),
      sql<number>`coalesce(-sum(amount) filter (where kind = 'import'), 0)::int`.as('used'),
    ])
    .where('user_id', '=', user.id)
    .executeTakeFirstOrThrow();
  return {
    userId: user.id,
    unlimited: user.role === ROLES.admin,
    remaining: user.import_quota,
    received: sums.received,
    given: sums.given,
    used: sums.used,
  };
}

export interface QuotaRecordView {
  id: string;
  kind: QuotaRecordKind;
  amount: number;
  balance: number;
  counterpartId: string | null;
  counterpartName: string | null;
  operatorName: string | null;
  note: string;
  createdAt: string;
}

export async function quotaRecords(
  ctx: AppContext,
  caller: Caller,
  userId: string,
  pageNum: number,
  pageSize: number,
): Promise<{ total: number; list: QuotaRecordView[] }> {
  const user = await loadReachableUser(ctx, caller, userId);
  const [count, rows] = await Promise.all([
    ctx.db
      .selectFrom('import_quota_records')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('import_quota_records as r')
      .leftJoin('users as c', 'c.id', 'r.counterpart_id')
      .leftJoin('users as o', 'o.id', 'r.operator_id')
      .select([
        'r.id',
        'r.kind',
        'r.amount',
        'r.balance',
        'r.counterpart_id',
        'c.username as counterpart_name',
        'o.username as operator_name',
        'r.note',
        'r.created_at',
      ])
      .where('r.user_id', '=', user.id)
      .orderBy('r.id', 'desc')
      .limit(pageSize)
      .offset((pageNum - 1) * pageSize)
      .execute(),
  ]);
  return {
    total: count.n,
    list: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      amount: r.amount,
      balance: r.balance,
      counterpartId: r.counterpart_id,
      counterpartName: r.counterpart_name,
      operatorName: r.operator_name,
      note: r.note,
      createdAt: r.created_at.toISOString(),
    })),
  };
}
