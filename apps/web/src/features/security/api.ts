// Sign-in security calls: two-factor enrolment, the session's state, the administrator's requirement switch.
import { api } from '../../api/client.ts';
import type { LoginData } from '../../api/types.ts';

export const totpSetup = () => api<{ secret: string; uri: string }>('/user/totp/setup');
export const totpEnable = (code: string) => api<{ recoveryCodes: string[] }>('/user/totp/enable', { code });
export const totpRecoveryCodes = (code: string) =>
  api<{ recoveryCodes: string[]; unusedBefore: number }>('/user/totp/recoveryCodes', { code });
export const totpDisable = (code: string) => api<null>('/user/totp/disable', { code });
export const currentSession = () => api<LoginData | null>('/session', undefined, { method: 'GET' });
export const changeOwnPassword = (oldPassword: string, password: string, confirmPassword: string) =>
  api<null>('/user/checkUserPassword', { oldPassword, password, confirmPassword });

export interface LoginSecurity {
  requireTotpForStaff: boolean;
}
export const findLoginSecurity = () => api<LoginSecurity>('/system/loginSecurity', undefined, { method: 'GET' });
export const saveLoginSecurity = (v: LoginSecurity) => api<LoginSecurity>('/system/loginSecurity', v);
