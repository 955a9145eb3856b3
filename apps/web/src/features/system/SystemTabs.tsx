// The System screens (main:system_config) as tabs: map keys, demo account and notice, API keys, audit log.
import { Tabs } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export type SystemTab = 'mapKey' | 'demoAccountSet' | 'apiKey' | 'auditLog';

export function SystemTabs({ active, children }: { active: SystemTab; children: ReactNode }) {
  const { t } = useTranslation('system');
  const navigate = useNavigate();
  return (
    <div style={{ padding: 16 }} data-testid={`system-${active}`}>
      <Tabs
        activeKey={active}
        onChange={(key) => navigate(`/index/system/${key}`)}
        items={[
          { key: 'mapKey', label: t('tab.mapKey') },
          { key: 'demoAccountSet', label: t('tab.demoAccountSet') },
          { key: 'apiKey', label: t('tab.apiKey') },
          { key: 'auditLog', label: t('tab.auditLog') },
        ]}
      />
      {children}
    </div>
  );
}
