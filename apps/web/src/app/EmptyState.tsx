// What every list shows when it has nothing, and while its first page loads (issue 17: "Empty states
// everywhere say what to do next", "skeletons, not blank cards, on every list").
//
// Empty: antd's ConfigProvider hands every Table and List without its own text this component, which says
// what to do next on the screen it is shown on (the path picks the hint: add a device, import, wait for the
// first position …; texts in the `empty` namespace, 11 languages).
// Loading: while a list's Spin is busy over an empty body, listSkeletonCss draws skeleton rows in place of
// the empty text (every Table's own empty text included), so a loading list never reads "nothing here".
import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';

type Hint =
  | 'devices'
  | 'alarms'
  | 'stats'
  | 'accounts'
  | 'imports'
  | 'fences'
  | 'commands'
  | 'tyres'
  | 'keys'
  | 'audit'
  | 'places'
  | 'factory'
  | 'generic';

/** The hint of a screen, by its path (first match wins). */
const HINTS: [RegExp, Hint][] = [
  [/^\/index\/(alarms|alarmsAll|count\/countAlarms)$/, 'alarms'],
  [/^\/index\/count\//, 'stats'],
  [/^\/index\/(agent\/setImportRecords|device\/deviceImport|device\/huaXiangDataImport)$/, 'imports'],
  [/^\/index\/(agent\/|account$)/, 'accounts'],
  [/^\/index\/(directive|device\/multipleCmd|device\/multipleCmdSearch)$/, 'commands'],
  [/^\/index\/(home|device\/|track$|checkCar\/)/, 'devices'],
  [/^\/index\/fence$/, 'fences'],
  [/^\/index\/tire$/, 'tyres'],
  [/^\/index\/system\/apiKey$/, 'keys'],
  [/^\/index\/system\/auditLog$/, 'audit'],
  [/^\/index\/(riskPoint|bus\/|drivers$)/, 'places'],
  [/^\/test\//, 'factory'],
];

export function emptyHint(path: string): Hint {
  return HINTS.find(([re]) => re.test(path))?.[1] ?? 'generic';
}

export function EmptyState() {
  const { t } = useTranslation('empty');
  const hint = emptyHint(window.location.pathname);
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      data-testid="empty-state"
      data-hint={hint}
      description={
        <>
          <div>{t('title')}</div>
          <div style={{ color: 'rgba(0,0,0,0.45)', maxWidth: 420, margin: '0 auto', whiteSpace: 'normal' }}>
            {t(`hint.${hint}`)}
          </div>
        </>
      }
    />
  );
}

/**
 * Skeleton rows over an empty list while it loads (antd marks the Spin around a loading Table or List
 * aria-busy="true"): the placeholder's content is hidden and grey bars shimmer in its place.
 */
export const listSkeletonCss = `
@keyframes carhere-skeleton { 0% { opacity: 1 } 50% { opacity: .45 } 100% { opacity: 1 } }
[aria-busy="true"] .ant-table-placeholder .ant-table-cell { position: relative; height: 168px; }
[aria-busy="true"] .ant-table-placeholder .ant-table-cell > *,
[aria-busy="true"] .ant-list-empty-text > * { visibility: hidden; }
[aria-busy="true"] .ant-table-placeholder .ant-table-cell::after,
[aria-busy="true"] .ant-list-empty-text::after {
  content: ''; position: absolute; inset: 16px 16px 16px 16px; pointer-events: none;
  background: repeating-linear-gradient(to bottom, rgba(0,0,0,.06) 0 22px, transparent 22px 36px);
  border-radius: 4px; animation: carhere-skeleton 1.4s ease-in-out infinite;
}
[aria-busy="true"] .ant-list-empty-text { position: relative; min-height: 168px; }
`;
