// The target ids a write names in its body, by kind: user ids, device terminal ids (IMEIs), and the ids of the
// area's own rows (fence, deviceAlarms, command, device …). Used by the audit log to say what a write touched.

/** kind → ids ('user' → ['12'], 'terminal' → ['868120000000001'], 'fence' → ['3']). */
export type Targets = Record<string, string[]>;

const MAX_PER_KIND = 200;
const USER_KEYS = new Set(['user_id', 'userId', 'parentId', 'targetUserId', 'toUserId']);
const TERMINAL_KEYS = new Set(['terminalID', 'terminalIDs', 'terminalIds', 'terminalId', 'imei', 'imeis']);
const AREA_ID_KEYS = new Set(['id', 'ids']);
/** Bodies whose free text lists IMEIs one per line. */
const TEXT_LIST_OPERATIONS = new Set(['POST /api/device/updateTimeByImei', 'POST /api/device/import']);

function scalarIds(v: unknown): string[] {
  const list = Array.isArray(v) ? v : [v];
  const out: string[] = [];
  for (const x of list) {
    if (typeof x === 'string' && x.trim() !== '') out.push(x.trim().slice(0, 40));
    else if (typeof x === 'number' && Number.isFinite(x)) out.push(String(x));
  }
  return out;
}

/** 'POST /api/user/resetPassword' → 'user'; 'POST /api/tracker_cmd' → 'tracker_cmd'. */
export function areaOf(operation: string): string {
  const path = operation.slice(operation.indexOf(' ') + 1).replace(/^\/api\//, '');
  return path.split('/')[0] || 'api';
}

export function targetsOf(operation: string, body: unknown, callerId: string | null): Targets {
  const found = new Map<string, Set<string>>();
  const add = (kind: string, ids: string[]) => {
    if (ids.length === 0) return;
    const set = found.get(kind) ?? new Set<string>();
    for (const id of ids) if (set.size < MAX_PER_KIND) set.add(id);
    found.set(kind, set);
  };
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const area = areaOf(operation);
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (USER_KEYS.has(key)) add('user', scalarIds(value));
      else if (TERMINAL_KEYS.has(key)) add('terminal', scalarIds(value));
      else if (AREA_ID_KEYS.has(key)) add(area, scalarIds(value));
      else if (key === 'text' && TEXT_LIST_OPERATIONS.has(operation) && typeof value === 'string')
        add('terminal', (value.match(/\b[0-9A-Za-z]{6,20}\b/g) ?? []).slice(0, MAX_PER_KIND));
    }
  }
  // Changing one's own password names no id: the target is the caller.
  if (operation === 'POST /api/user/checkUserPassword' && callerId) add('user', [callerId]);
  const out: Targets = {};
  for (const [kind, ids] of found) out[kind] = [...ids];
  return out;
}

/** 'user:12', 'terminal:8681…' — one key per target, for searching the log by target. */
export function targetKeys(targets: Targets): string[] {
  return Object.entries(targets).flatMap(([kind, ids]) => ids.map((id) => `${kind}:${id}`));
}
