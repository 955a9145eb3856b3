// A small notice in the map's lower-left corner (tiles offline, key missing).
import type { ReactNode } from 'react';

export function MapNotice({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <div
      data-testid={testId}
      style={{
        background: 'rgba(255,255,255,.92)',
        padding: '4px 8px',
        borderRadius: 4,
        fontSize: 12,
        boxShadow: '0 1px 3px rgba(0,0,0,.15)',
        pointerEvents: 'none',
      }}
    >
      {children}
    </div>
  );
}
