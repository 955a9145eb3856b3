// Alarms by account (spec §7 /deviceAlarms/findAllById): an account of the caller's tree, with or without its
// sub-accounts, and where it sits in the tree (/user/getFamily: its superiors as far up as the caller reaches).
import { useQuery } from '@tanstack/react-query';
import { Breadcrumb, Checkbox, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAccountAccess } from '../agent/access.ts';
import { AccountSelect } from '../device/AccountSelect.tsx';
import { findFamily } from './api.ts';

export interface AlarmAccount {
  userId?: string;
  children: boolean;
}

export function AlarmAccountPicker({ value, onChange }: { value: AlarmAccount; onChange: (v: AlarmAccount) => void }) {
  const { t } = useTranslation('alarmAccount');
  const { can } = useAccountAccess();
  const family = useQuery({
    queryKey: ['accountFamily', value.userId],
    queryFn: ({ signal }) => findFamily(value.userId ?? '', signal),
    enabled: value.userId !== undefined,
    staleTime: 60_000,
  });
  // The account tree is the agents' (spec §6 agent add / edit); others see their own devices only.
  if (!can('add') && !can('edit')) return null;
  const f = family.data;
  return (
    <Space wrap size={8} data-testid="alarm-account">
      <AccountSelect
        value={value.userId}
        onChange={(userId) => onChange({ ...value, userId })}
        placeholder={t('account.all')}
        testId="alarm-account-select"
      />
      {value.userId && (
        <>
          <Checkbox
            checked={value.children}
            onChange={(e) => onChange({ ...value, children: e.target.checked })}
            data-testid="alarm-account-children"
          >
            {t('account.children')}
          </Checkbox>
          <a onClick={() => onChange({ children: false })} data-testid="alarm-account-clear">
            {t('account.clear')}
          </a>
        </>
      )}
      {f && (
        <Breadcrumb
          data-testid="alarm-account-family"
          items={[...f.ancestors, f.user].map((u) => ({
            title:
              u.id === f.user.id ? (
                <b>{u.username}</b>
              ) : (
                <a onClick={() => onChange({ ...value, userId: u.id })}>{u.username}</a>
              ),
          }))}
        />
      )}
    </Space>
  );
}
