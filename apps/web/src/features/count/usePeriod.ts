// The date-search state of a statistics screen and the range it names, computed when the choice changes or
// the user presses search (so "today" follows the clock).
import { useMemo, useState } from 'react';
import { useAuth } from '../../auth/store.ts';
import type { Range } from './api.ts';
import type { PeriodValue } from './DateSearch.tsx';
import { periodRange, userZone } from './period.ts';

export function usePeriod(initial: PeriodValue['option'] = 7) {
  const auth = useAuth();
  const zone = userZone(auth?.userInfo.timeZone);
  const [period, setPeriod] = useState<PeriodValue>({ option: initial, custom: null });
  const [now, setNow] = useState(() => Date.now());
  const result = useMemo(() => {
    const custom = period.custom
      ? ([
          { year: period.custom[0].year(), month: period.custom[0].month() + 1, day: period.custom[0].date() },
          { year: period.custom[1].year(), month: period.custom[1].month() + 1, day: period.custom[1].date() },
        ] as const)
      : null;
    return periodRange(period.option, custom ? [custom[0], custom[1]] : null, zone, now);
  }, [period, zone, now]);
  const range: Range | null = result.ok ? result.value : null;
  return {
    period,
    setPeriod,
    range,
    zone,
    error: result.ok ? undefined : result.message,
    refresh: () => setNow(Date.now()),
  };
}
