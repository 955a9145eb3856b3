// The five list tabs with their counts, two lines each so all five fit the panel in every language.
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIST_TABS, type ListCounts, type ListTab } from './filter.ts';

export function ListTabs({
  tab,
  counts,
  onChange,
}: {
  tab: ListTab;
  counts: ListCounts;
  onChange: (tab: ListTab) => void;
}) {
  const { t } = useTranslation('monitor');
  return (
    <Segmented<ListTab>
      block
      size="small"
      value={tab}
      onChange={onChange}
      options={LIST_TABS.map((key) => ({
        value: key,
        label: (
          <div
            data-testid={`device-tab-${key}`}
            title={t(`tabs.${key}`)}
            style={{ lineHeight: '16px', padding: '3px 0' }}
          >
            <div style={{ fontSize: 12, overflow: 'hidden', textOverflow: 'ellipsis' }}>{t(`tabs.${key}`)}</div>
            <div data-testid={`device-count-${key}`} style={{ fontWeight: 600 }}>
              {counts[key]}
            </div>
          </div>
        ),
      }))}
    />
  );
}
