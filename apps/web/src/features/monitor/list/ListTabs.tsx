// The five list tabs with their counts, so all five fit the panel in every language.
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIST_TABS, type ListCounts, type ListTab } from './filter.ts';

// Up to two lines of label ('Chưa kích hoạt', 'Не активированы' do not fit one line of a fifth of the panel),
// using the item's side padding too; the same height for every tab and language, so the counts stay in one
// row. A word still too long is cut with an ellipsis (the full name is the tab's title).
const labelBox = {
  height: 28,
  margin: '0 -5px',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
} as const;
const labelText = {
  fontSize: 11,
  lineHeight: '14px',
  display: '-webkit-box',
  WebkitBoxOrient: 'vertical',
  WebkitLineClamp: 2,
  whiteSpace: 'normal',
  overflowWrap: 'break-word',
  overflow: 'hidden',
} as const;

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
            <div style={labelBox}>
              <span style={labelText}>{t(`tabs.${key}`)}</span>
            </div>
            <div data-testid={`device-count-${key}`} style={{ fontWeight: 600 }}>
              {counts[key]}
            </div>
          </div>
        ),
      }))}
    />
  );
}
