// Which devices a report covers: an account of the caller's tree (with or without its sub-accounts) or chosen
// devices. Reuses the account tree and device pickers of the device and command screens.
import { Checkbox, Segmented, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { DeviceSelect } from '../command/DeviceSelect.tsx';
import { AccountSelect } from '../device/AccountSelect.tsx';
import type { Scope } from './api.ts';

export interface ScopeValue {
  by: 'account' | 'devices';
  userId?: string;
  children: boolean;
  terminalIDs: string[];
}

export const DEFAULT_SCOPE: ScopeValue = { by: 'account', children: true, terminalIDs: [] };

export function toScope(v: ScopeValue): Scope {
  if (v.by === 'devices') return { terminalIDs: v.terminalIDs };
  return v.userId ? { userId: v.userId, children: v.children } : {};
}

/** The scope can be asked for: devices mode needs at least one device. */
export function scopeReady(v: ScopeValue): boolean {
  return v.by === 'account' || v.terminalIDs.length > 0;
}

export function ScopePicker({ value, onChange }: { value: ScopeValue; onChange: (v: ScopeValue) => void }) {
  const { t } = useTranslation('count');
  return (
    <Space wrap size={8}>
      <Segmented<ScopeValue['by']>
        value={value.by}
        onChange={(by) => onChange({ ...value, by })}
        options={[
          { value: 'account', label: t('scope.account') },
          { value: 'devices', label: t('scope.devices') },
        ]}
        data-testid="scope-mode"
      />
      {value.by === 'account' ? (
        <>
          <AccountSelect
            value={value.userId}
            onChange={(userId) => onChange({ ...value, userId })}
            placeholder={t('scope.allMine')}
            testId="scope-account"
          />
          <Checkbox checked={value.children} onChange={(e) => onChange({ ...value, children: e.target.checked })}>
            {t('scope.children')}
          </Checkbox>
        </>
      ) : (
        <DeviceSelect
          multiple
          value={value.terminalIDs}
          onChange={(terminalIDs) => onChange({ ...value, terminalIDs })}
          placeholder={t('scope.pickDevices')}
          style={{ minWidth: 320, maxWidth: 520 }}
          testId="scope-devices"
        />
      )}
    </Space>
  );
}
