// What the signed-in account may do on the account screens (spec §6). Hiding a button is convenience only:
// the server checks every call.
import { hasPermission } from '@carhere/domain';
import { useAuth } from '../../auth/store.ts';

export type AccountAction =
  | 'add'
  | 'edit'
  | 'username'
  | 'transfer'
  | 'resetPassword'
  | 'clearSessions'
  | 'resetTwoFactor'
  | 'delete'
  | 'quota'
  | 'export';

const NEEDS: Record<AccountAction, string[]> = {
  add: ['main:agent_add'],
  edit: ['main:agent_edit'],
  username: ['main:agent_username'],
  transfer: ['main:agent_transfer'],
  resetPassword: ['main:agent_reset_password'],
  // /user/clear: the server asks for the same permission as a password reset.
  clearSessions: ['main:agent_reset_password'],
  // /user/totp/reset: the same permission as a password reset (admin: any account; agent: its subtree).
  resetTwoFactor: ['main:agent_reset_password'],
  delete: ['main:agent_delete'],
  quota: ['main:agent_import_quota'],
  export: ['main:agent_export', 'main:agent_add'],
};

export function useAccountAccess(): { can: (action: AccountAction) => boolean; myId: string; myRole: number } {
  const auth = useAuth();
  const held = auth?.permissions ?? [];
  return {
    can: (action) => hasPermission(held, NEEDS[action]),
    myId: auth?.userInfo.id ?? '',
    myRole: auth?.userInfo.role ?? 0,
  };
}
