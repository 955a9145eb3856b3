// The date search of spec §5: today, the last 7 or 30 days, or custom days; the range comes from the domain rule
// (period.ts), its refusal (no days, wrong order) is shown in the interface language.
import { DatePicker, Segmented, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { domainText } from '../agent/formRules.ts';
import { PERIOD_OPTIONS, type PeriodOption } from './period.ts';

export interface PeriodValue {
  option: PeriodOption;
  custom: [Dayjs, Dayjs] | null;
}

export function DateSearch({
  value,
  onChange,
  error,
}: {
  value: PeriodValue;
  onChange: (v: PeriodValue) => void;
  /** The domain's message key when the choice is refused. */
  error?: string;
}) {
  const { t } = useTranslation('count');
  return (
    <Space wrap size={8}>
      <Segmented<PeriodOption>
        value={value.option}
        onChange={(option) => onChange({ ...value, option })}
        options={PERIOD_OPTIONS.map((o) => ({
          value: o,
          label: o === 1 ? t('period.today') : o === 0 ? t('period.custom') : t('period.lastDays', { count: o }),
        }))}
        data-testid="period"
      />
      {value.option === 0 && (
        <DatePicker.RangePicker
          value={value.custom}
          onChange={(v) => onChange({ ...value, custom: v?.[0] && v[1] ? [v[0], v[1]] : null })}
          disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
          data-testid="period-custom"
        />
      )}
      {error && <Typography.Text type="danger">{domainText(error)}</Typography.Text>}
    </Space>
  );
}
