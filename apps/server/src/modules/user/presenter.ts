// Exactly which user fields leave the API.
import { z } from 'zod';

export const userInfoSchema = z.object({
  id: z.string(),
  username: z.string(),
  nickname: z.string(),
  role: z.number().int(),
  /** Comma-separated ids of the user's superiors from the root, '0' first (e.g. '0,1,5'). */
  ancestors: z.string(),
  parentId: z.string().nullable(),
  telephone: z.string(),
  email: z.string(),
  address: z.string(),
  mark: z.string(),
  lang: z.string(),
  timeZone: z.string(),
  expireAt: z.string().nullable(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** '/1/5/12/' → '0,1,5' */
export function ancestorsOf(path: string): string {
  const ids = path.split('/').filter(Boolean);
  return ['0', ...ids.slice(0, -1)].join(',');
}

export interface UserRowForInfo {
  id: string;
  username: string;
  nickname: string;
  role: number;
  path: string;
  parent_id: string | null;
  telephone: string;
  email: string;
  address: string;
  mark: string;
  lang: string;
  time_zone: string;
  expire_at: Date | null;
}

export function presentUser(u: UserRowForInfo): UserInfo {
  return {
    id: u.id,
    username: u.username,
    nickname: u.nickname,
    role: u.role,
    ancestors: ancestorsOf(u.path),
    parentId: u.parent_id,
    telephone: u.telephone,
    email: u.email,
    address: u.address,
    mark: u.mark,
    lang: u.lang,
    timeZone: u.time_zone,
    expireAt: u.expire_at ? u.expire_at.toISOString() : null,
  };
}

/** One row of the agent and user lists (spec §3: id, user_id, ancestors, username, nickname, role, deviceNum, saleNum). */
export const userRowSchema = z.object({
  id: z.string(),
  /** The parent account's id ('0' for the root), as the spec's list rows name it. */
  user_id: z.string(),
  ancestors: z.string(),
  username: z.string(),
  nickname: z.string(),
  role: z.number().int(),
  telephone: z.string(),
  email: z.string(),
  address: z.string(),
  mark: z.string(),
  providerName: z.string(),
  providerLinkman: z.string(),
  providerTelephone: z.string(),
  expireAt: z.string().nullable(),
  createdAt: z.string(),
  /** Devices the account owns itself. */
  deviceNum: z.number().int(),
  /** Devices in the account's whole subtree (itself included). */
  totalDeviceNum: z.number().int(),
  /** Devices the account has sold to end users. */
  saleNum: z.number().int(),
  /** Imports the account may still make or hand down. */
  importQuota: z.number().int(),
  /** Direct sub-accounts. */
  childCount: z.number().int(),
});
export type UserListRow = z.infer<typeof userRowSchema>;

export interface UserRowForList extends UserRowForInfo {
  provider_name: string;
  provider_linkman: string;
  provider_telephone: string;
  import_quota: number;
  sale_num: number;
  created_at: Date;
}

export interface UserCounts {
  deviceNum: number;
  totalDeviceNum: number;
  childCount: number;
}

export function presentUserRow(u: UserRowForList, counts: UserCounts): UserListRow {
  return {
    id: u.id,
    user_id: u.parent_id ?? '0',
    ancestors: ancestorsOf(u.path),
    username: u.username,
    nickname: u.nickname,
    role: u.role,
    telephone: u.telephone,
    email: u.email,
    address: u.address,
    mark: u.mark,
    providerName: u.provider_name,
    providerLinkman: u.provider_linkman,
    providerTelephone: u.provider_telephone,
    expireAt: u.expire_at ? u.expire_at.toISOString() : null,
    createdAt: u.created_at.toISOString(),
    deviceNum: counts.deviceNum,
    totalDeviceNum: counts.totalDeviceNum,
    saleNum: u.sale_num,
    importQuota: u.import_quota,
    childCount: counts.childCount,
  };
}
