// Device accounts from the device list (spec §6 main:device_reset_password, main:device_username), and the reset
// of another account's two-factor sign-in from the account list.
import { api } from '../../api/client.ts';

export interface DevicePasswordsResult {
  updated: string[];
  notFound: string[];
  passwords: { terminalId: string; password: string }[];
}

/** New random passwords for the device accounts of these IMEIs, answered once. */
export const resetDeviceAccountPasswords = (terminalIds: string[]) =>
  api<DevicePasswordsResult>('/user/updatePwdByTerminalIds', { terminalIds });

export const renameDeviceAccount = (terminalID: string, username: string) =>
  api<{ id: string; from: string; to: string }>('/user/updateDeviceUsername', { terminalID, username });

export const resetTwoFactor = (id: string) => api<{ wasEnabled: boolean }>('/user/totp/reset', { id });
