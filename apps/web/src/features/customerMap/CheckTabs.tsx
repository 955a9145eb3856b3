// Switches between the two vehicle checks (area and point), one menu entry for both.
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export function CheckTabs({ active }: { active: 'area' | 'point' }) {
  const { t } = useTranslation('customerMap');
  const navigate = useNavigate();
  return (
    <Segmented
      block
      style={{ marginBottom: 12 }}
      value={active}
      onChange={(v) => navigate(`/index/checkCar/${v}`)}
      options={[
        { value: 'area', label: t('area.title') },
        { value: 'point', label: t('point.title') },
      ]}
      data-testid="check-tabs"
    />
  );
}
