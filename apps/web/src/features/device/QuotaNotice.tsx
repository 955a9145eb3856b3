// The import screen says when the caller's import quota cannot cover the list (issue 17: an agent with 0
// imports left got a screen that silently failed): how many are left and whom to ask for more (its superior,
// with telephone and e-mail when known; the administrator when it has none).
import { useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { callEnvelope } from '../../api/client.ts';

interface Superior {
  name: string;
  telephone: string;
  email: string;
}

async function fetchSuperior(): Promise<Superior | null> {
  const env = await callEnvelope<Superior | null>('/user/superior', undefined, { method: 'GET' });
  return env.meta.success ? env.data : null;
}

/** Whether an import of `wanted` devices is refused for want of quota. */
export function quotaShort(quota: { unlimited: boolean; remaining: number } | undefined, wanted: number): boolean {
  if (!quota || quota.unlimited) return false;
  return quota.remaining === 0 || wanted > quota.remaining;
}

export function QuotaNotice({ remaining, wanted }: { remaining: number; wanted: number }) {
  const { t } = useTranslation('device');
  const superior = useQuery({ queryKey: ['superior'], queryFn: fetchSuperior, staleTime: 300_000 });
  const sup = superior.data;
  const contact = sup ? [sup.telephone, sup.email].filter(Boolean).join(' · ') : '';
  const ask = sup
    ? t('import.askSuperior', { name: sup.name }) + (contact ? ` (${contact})` : '')
    : t('import.askAdmin');
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="import-no-quota"
      message={remaining === 0 ? t('import.noQuota') : t('import.overQuota', { remaining, wanted })}
      description={superior.isPending ? null : ask}
    />
  );
}
