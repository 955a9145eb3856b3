// Before/after of the rows a write may change: accounts (name, role, owner, expiry, password) and devices
// (owner, service term, expiries). Read once before the handler runs and once after it succeeded; only rows
// whose tracked fields differ are kept. A deleted row has `after: null`. Passwords never leave as hashes.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AuditChange } from '../../db/tables/audit.ts';
import type { Targets } from './targets.ts';

type Row = Record<string, unknown>;
/** kind:id → the row's tracked fields (with the password hash, dropped before writing). */
export type RowState = Map<string, Row>;

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v);
const isId = (v: string) => /^\d{1,18}$/.test(v);

export async function readState(db: Kysely<Database>, targets: Targets): Promise<RowState> {
  const state: RowState = new Map();
  const userIds = (targets.user ?? []).filter(isId);
  const terminals = targets.terminal ?? [];
  const deviceIds = (targets.device ?? []).filter(isId);
  if (userIds.length > 0 || terminals.length > 0) {
    let q = db.selectFrom('users').select(['id', 'username', 'role', 'parent_id', 'expire_at', 'password_hash']);
    q = q.where((eb) =>
      eb.or([
        ...(userIds.length > 0 ? [eb('id', 'in', userIds)] : []),
        // Device accounts are named after their device: a device reset or sale changes them.
        ...(terminals.length > 0 ? [eb('username', 'in', terminals)] : []),
      ]),
    );
    for (const u of await q.execute()) {
      state.set(`user:${u.id}`, {
        username: u.username,
        role: u.role,
        parentId: u.parent_id,
        expireAt: iso(u.expire_at),
        passwordHash: u.password_hash,
      });
    }
  }
  if (terminals.length > 0 || deviceIds.length > 0) {
    const rows = await db
      .selectFrom('devices')
      .select(['id', 'terminal_id', 'user_id', 'service_term', 'platform_expire_at', 'user_expire_at', 'expire_manual'])
      .where((eb) =>
        eb.or([
          ...(terminals.length > 0 ? [eb('terminal_id', 'in', terminals)] : []),
          ...(deviceIds.length > 0 ? [eb('id', 'in', deviceIds)] : []),
        ]),
      )
      .execute();
    for (const d of rows) {
      state.set(`device:${d.id}`, {
        terminalID: d.terminal_id,
        owner: d.user_id,
        serviceTerm: d.service_term,
        platformExpireAt: iso(d.platform_expire_at),
        userExpireAt: iso(d.user_expire_at),
        expireManual: d.expire_manual,
      });
    }
  }
  return state;
}

function publicFields(row: Row): Row {
  const { passwordHash: _hash, ...rest } = row;
  return rest;
}

/** The rows whose tracked fields differ between `before` and `after` (password: 'changed', never the hash). */
export function diffState(before: RowState, after: RowState): AuditChange[] {
  const changes: AuditChange[] = [];
  for (const [key, was] of before) {
    const [kind, id] = key.split(':') as [AuditChange['kind'], string];
    const now = after.get(key);
    if (!now) {
      changes.push({ kind, id, before: publicFields(was), after: null });
      continue;
    }
    const changedFields = Object.keys(was).filter((f) => JSON.stringify(was[f]) !== JSON.stringify(now[f]));
    if (changedFields.length === 0) continue;
    const b: Row = {};
    const a: Row = {};
    for (const f of changedFields) {
      if (f === 'passwordHash') {
        a.password = 'changed';
        continue;
      }
      b[f] = was[f];
      a[f] = now[f];
    }
    changes.push({ kind, id, before: b, after: a });
  }
  for (const [key, now] of after) {
    if (before.has(key)) continue;
    const [kind, id] = key.split(':') as [AuditChange['kind'], string];
    changes.push({ kind, id, before: null, after: publicFields(now) });
  }
  return changes;
}
