import { ALLOWED, type RuleResult, refuse } from './result.ts';
import { ROLES } from './roles.ts';

// Account rules of spec §5 over plain data. The server runs them against the database's facts; the web
// runs the same functions to explain a refusal before sending anything.

/** Ids of an account's superiors, outermost first: '0,1,5' or [0, 1, 5]. */
export type Ancestors = string | readonly number[] | null | undefined;

export interface AccountRef {
  readonly id: number;
  readonly ancestors?: Ancestors;
}

/** Parses '0,1,5' (spaces and blanks tolerated, non-numbers dropped) or passes an id array through. */
export function parseAncestors(ancestors: Ancestors): number[] {
  if (ancestors == null) return [];
  const parts = typeof ancestors === 'string' ? ancestors.split(',') : ancestors;
  const ids: number[] = [];
  for (const part of parts) {
    const text = String(part).trim();
    if (/^\d+$/.test(text)) ids.push(Number(text));
  }
  return ids;
}

/** True when `superiorId` is somewhere above `account` in the hierarchy. */
export function isSuperiorOf(superiorId: number, account: AccountRef): boolean {
  return parseAncestors(account.ancestors).includes(superiorId);
}

/** Member of a user group (spec §6: Hong Kong accounts, a customer group) by its own id or an ancestor's. */
export function belongsToGroup(account: AccountRef, groupIds: Iterable<number>): boolean {
  const group = new Set(groupIds);
  return group.has(account.id) || parseAncestors(account.ancestors).some((id) => group.has(id));
}

/** No transfer to yourself, nor to the account the device already belongs to. */
export function canTransferDevice(input: {
  actorId: number;
  targetUserId: number;
  currentOwnerId: number | null | undefined;
}): RuleResult {
  if (input.targetUserId === input.actorId) return refuse('account.transferToSelf');
  if (input.targetUserId === input.currentOwnerId) return refuse('account.transferToOwner');
  return ALLOWED;
}

/** No moving an account under itself or under one of its own subordinates. */
export function canMoveUnder(account: { readonly id: number }, newParent: AccountRef): RuleResult {
  if (newParent.id === account.id || isSuperiorOf(account.id, newParent)) {
    return refuse('account.moveUnderSubordinate');
  }
  return ALLOWED;
}

/** No selling to oneself. */
export function canSell(sellerId: number, buyerId: number): RuleResult {
  return sellerId === buyerId ? refuse('account.sellToSelf') : ALLOWED;
}

/**
 * A username must be non-blank and not taken. Compared after trimming and exactly (case matters),
 * as the database's unique index compares them.
 */
export function isUsernameAvailable(username: string, taken: Iterable<string>): RuleResult {
  const wanted = typeof username === 'string' ? username.trim() : '';
  if (wanted === '') return refuse('account.usernameInvalid');
  for (const existing of taken) if (existing.trim() === wanted) return refuse('account.usernameTaken');
  return ALLOWED;
}

/** No deleting an account that still has sub-agents or devices. */
export function canDeleteAccount(input: { subAgentCount: number; deviceCount: number }): RuleResult {
  if (input.subAgentCount > 0) return refuse('account.hasSubAgents');
  if (input.deviceCount > 0) return refuse('account.hasDevices');
  return ALLOWED;
}

/** Roles that may own sub-users: agents (agent, superAgent) and admin. Unknown or missing roles may not. */
export function canAddSubUser(parentRole: number | null | undefined): RuleResult {
  const allowed = parentRole === ROLES.admin || parentRole === ROLES.agent || parentRole === ROLES.superAgent;
  return allowed ? ALLOWED : refuse('account.noSubUsers');
}

/** The password and its confirmation must match. */
export function passwordsMatch(password: string, confirmation: string): RuleResult {
  return password === confirmation ? ALLOWED : refuse('account.passwordMismatch');
}

/**
 * An import of `count` devices needs at least that many imports left (spec §5); otherwise the agent
 * must create a new sub-agent.
 */
export function hasQuotaFor(remaining: number, count: number): RuleResult {
  if (!Number.isFinite(remaining) || !Number.isInteger(count) || count < 0 || count > remaining) {
    return refuse('quota.importInsufficient');
  }
  return ALLOWED;
}

/** A fence that still has devices cannot be deleted until they are removed. */
export function canDeleteFence(linkedDeviceCount: number): RuleResult {
  return linkedDeviceCount > 0 ? refuse('fence.hasDevices') : ALLOWED;
}

/** A plate already used by another device asks for a new one; the device's own plate is fine. */
export function isPlateAvailable(
  plate: string,
  terminalID: string,
  others: Iterable<{ readonly terminalID: string; readonly carNumber?: string | null }>,
): RuleResult {
  const wanted = plate.trim().toUpperCase();
  if (wanted === '') return ALLOWED;
  for (const other of others) {
    if (other.terminalID !== terminalID && other.carNumber?.trim().toUpperCase() === wanted) {
      return refuse('device.plateConflict');
    }
  }
  return ALLOWED;
}
