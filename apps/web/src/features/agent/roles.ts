// Role names in the interface language, and the roles the signed-in account may give (asked from the server).
import { roleName } from '@carhere/domain';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { assignableRoles } from './api.ts';

export function useRoleLabel(): (role: number) => string {
  const { t } = useTranslation('agent');
  return (role) => {
    const name = roleName(role);
    return name ? t(`role.${name}`) : String(role);
  };
}

export function useAssignableRoles() {
  const label = useRoleLabel();
  const q = useQuery({ queryKey: ['assignableRoles'], queryFn: assignableRoles, staleTime: 10 * 60_000 });
  return (q.data?.roles ?? []).map((role) => ({ value: role, label: label(role) }));
}
