// The global loading indicator (spec §7, §8): a bar at the top of the page while any call that is not on the
// white list is in flight; it closes when the last one ends, failed or not (a network failure closes it too).
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { isLoading, subscribeLoading } from '../api/client.ts';

export function GlobalLoading() {
  const { t } = useTranslation('common', { useSuspense: false });
  const busy = useSyncExternalStore(subscribeLoading, () => isLoading());
  if (!busy) return null;
  return (
    <div
      className="carhere-global-loading"
      role="progressbar"
      aria-label={t('loading', { defaultValue: 'Loading…' })}
      data-testid="global-loading"
      style={{
        position: 'fixed',
        top: 0,
        left: 0,
        right: 0,
        height: 3,
        zIndex: 2000,
        background: 'linear-gradient(90deg, #1677ff 0%, #69b1ff 50%, #1677ff 100%)',
        backgroundSize: '200% 100%',
        animation: 'carhere-loading 1s linear infinite',
      }}
    >
      <style>{'@keyframes carhere-loading{from{background-position:200% 0}to{background-position:0 0}}'}</style>
    </div>
  );
}
