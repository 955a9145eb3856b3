// The signed-in account's own data: its profile and its password.
import { api } from '../../api/client.ts';
import type { UserInfo } from '../../api/types.ts';

export const findMe = (id: string) => api<UserInfo>('/user/findById', { id });
export const changeOwnPassword = (oldPassword: string, password: string, confirmPassword: string) =>
  api<null>('/user/checkUserPassword', { oldPassword, password, confirmPassword });
export const hasDefaultPassword = () =>
  api<{ isDefault: boolean }>('/user/checkPassword', undefined, { method: 'GET' }).then((r) => r.isDefault);
