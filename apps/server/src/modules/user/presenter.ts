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
