// Whether the window is phone-sized (narrower than antd's md breakpoint, 768 px), read synchronously so the
// first paint already has the right layout, and followed as the window changes.
import { useSyncExternalStore } from 'react';

const QUERY = '(max-width: 767.98px)';

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia(QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

export function useCompact(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(QUERY).matches,
    () => false,
  );
}
