// A time window of at most 24 hours (vehicle checks), with the time of day; the last 24 hours by default.
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';

export type Window = [Dayjs, Dayjs];
export const DAY_MS = 86_400_000;

/** The last 24 hours, ending at the next whole minute (a window ending at the last whole minute would leave out
 * the fixes of the current one). */
export function lastDay(): Window {
  const end = dayjs().add(1, 'minute').second(0).millisecond(0);
  return [end.subtract(1, 'day'), end];
}

export function WindowPicker({ value, onChange }: { value: Window; onChange: (w: Window) => void }) {
  return (
    <DatePicker.RangePicker
      showTime={{ format: 'HH:mm' }}
      format="YYYY-MM-DD HH:mm"
      value={value}
      allowClear={false}
      data-testid="check-window"
      onChange={(v) => {
        if (!v?.[0] || !v[1]) return;
        const [a, b] = v as [Dayjs, Dayjs];
        // Longer than a day: keep the end, pull the start in.
        onChange(b.diff(a) > DAY_MS ? [b.subtract(1, 'day'), b] : [a, b]);
      }}
      disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
    />
  );
}

export const formatTime = (iso: string) => dayjs(iso).format('YYYY-MM-DD HH:mm:ss');
