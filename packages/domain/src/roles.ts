/** The 14 numbered roles of spec §3. */
export const ROLES = {
  admin: 1,
  agent: 2,
  user: 3,
  superUser: 4,
  test: 5,
  testSearch: 6,
  wanweiTest: 7,
  log: 8,
  otaLookPremissionUser: 11,
  originLogSearch: 12,
  superAgent: 13,
  configPlatformUser: 14,
  testStockUser: 15,
  testTransferIpUser: 16,
} as const;

export type RoleName = keyof typeof ROLES;
export type RoleId = (typeof ROLES)[RoleName];

export const ROLE_NAMES = Object.keys(ROLES) as RoleName[];

const NAME_BY_ID = new Map<number, RoleName>(ROLE_NAMES.map((name) => [ROLES[name], name]));

export function isRoleId(value: unknown): value is RoleId {
  return typeof value === 'number' && NAME_BY_ID.has(value);
}

export function isRoleName(value: unknown): value is RoleName {
  return typeof value === 'string' && Object.hasOwn(ROLES, value);
}

/** Name of a role number, or undefined for a number that is not a role. */
export function roleName(id: number | null | undefined): RoleName | undefined {
  return id == null ? undefined : NAME_BY_ID.get(id);
}

/** Role number of a name or number; undefined when it is neither. */
export function toRoleId(role: RoleId | RoleName | number | string | null | undefined): RoleId | undefined {
  if (isRoleId(role)) return role;
  if (isRoleName(role)) return ROLES[role];
  return undefined;
}

/** Spec §6: admin, and also true when the role is missing (null or undefined). */
export function isAdmin(role: number | null | undefined): boolean {
  return role == null || role === ROLES.admin;
}

/** Spec §6: agent or superAgent. */
export function isAgent(role: number | null | undefined): boolean {
  return role === ROLES.agent || role === ROLES.superAgent;
}

/** Roles whose interface is always Chinese (spec §1). */
export const CHINESE_ONLY_ROLES: readonly RoleId[] = [ROLES.wanweiTest, ROLES.test, ROLES.testSearch];

export function forcesChineseInterface(role: number | null | undefined): boolean {
  return role != null && (CHINESE_ONLY_ROLES as readonly number[]).includes(role);
}

/** The two areas of the product: the customer site (/index) and the factory back office (/test). */
export type RootArea = 'main' | 'factory';

const MAIN_AREA_ROLES: readonly number[] = [ROLES.admin, ROLES.agent, ROLES.user, ROLES.superUser, ROLES.superAgent];

/** Root area of a role (spec §6): customer roles and admin are 'main', test and factory roles 'factory'. */
export function roleRootArea(role: number | null | undefined): RootArea {
  return isAdmin(role) || MAIN_AREA_ROLES.includes(role as number) ? 'main' : 'factory';
}
