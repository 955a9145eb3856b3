// The home page's monitoring session, with its loading state; re-renders on list changes at most once per
// live batch (the store's version).
import { useEffect, useState, useSyncExternalStore } from 'react';
import { MonitorSession } from './monitorSession.ts';

export interface MonitorSessionState {
  session: MonitorSession;
  loading: boolean;
  error: string | null;
}

export function useMonitorSession(): MonitorSessionState {
  const [session] = useState(() => new MonitorSession());
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    session.start().then(
      () => live && setLoading(false),
      (err: Error) => {
        if (!live) return;
        setError(err.message);
        setLoading(false);
      },
    );
    return () => {
      live = false;
      session.close();
    };
  }, [session]);

  return { session, loading, error };
}

/** Re-renders the caller whenever the store changed (once per live batch at most). */
export function useStoreVersion(session: MonitorSession): number {
  return useSyncExternalStore(session.store.subscribe, session.store.getVersion);
}
