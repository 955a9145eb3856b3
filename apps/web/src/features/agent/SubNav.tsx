// Links between the screens of one area (agent or device), showing only those the role may open.
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { mayOpen } from '../../app/guard.ts';
import { useAuth } from '../../auth/store.ts';

export interface SubNavItem {
  /** Path below /index. */
  path: string;
  /** i18n key (with namespace). */
  labelKey: string;
}

export function SubNav({ items }: { items: SubNavItem[] }) {
  const { t } = useTranslation();
  const auth = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const visible = items.filter((i) => mayOpen(`/index/${i.path}`, auth));
  if (visible.length < 2) return null;
  return (
    <Tabs
      size="small"
      activeKey={pathname}
      onChange={(key) => navigate(key)}
      items={visible.map((i) => ({ key: `/index/${i.path}`, label: t(i.labelKey) }))}
      style={{ marginBottom: 8 }}
    />
  );
}

export const AGENT_PAGES: SubNavItem[] = [
  { path: 'agent/agentList', labelKey: 'agent:nav.agentList' },
  { path: 'agent/setImportRecords', labelKey: 'agent:nav.setImportRecords' },
  { path: 'agent/indexAgentListExport', labelKey: 'agent:nav.export' },
];
