// A fixed-row-height virtual list: only the rows in view (plus a few) are in the DOM, so 10,000+ devices
// scroll and filter as fast as 30.
import { type ReactNode, useEffect, useRef, useState } from 'react';

export interface VirtualListProps<T> {
  items: readonly T[];
  rowHeight: number;
  itemKey: (item: T) => string;
  renderRow: (item: T, index: number) => ReactNode;
  /** Rows rendered beyond the visible ones on each side. */
  overscan?: number;
  /** Scroll so this index is visible. */
  scrollToIndex?: number | null;
  testId?: string;
}

export function VirtualList<T>({
  items,
  rowHeight,
  itemKey,
  renderRow,
  overscan = 6,
  scrollToIndex,
  testId,
}: VirtualListProps<T>) {
  const el = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const observer = new ResizeObserver(() => setHeight(node.clientHeight));
    observer.observe(node);
    setHeight(node.clientHeight);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const node = el.current;
    if (!node || scrollToIndex == null || scrollToIndex < 0) return;
    const top = scrollToIndex * rowHeight;
    if (top < node.scrollTop || top + rowHeight > node.scrollTop + node.clientHeight) {
      node.scrollTop = Math.max(0, top - node.clientHeight / 2);
    }
  }, [scrollToIndex, rowHeight]);

  // A shorter list (new filter) may leave the old scroll position past its end.
  const maxTop = Math.max(0, items.length * rowHeight - height);
  const top = Math.min(scrollTop, maxTop);
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((top + height) / rowHeight) + overscan);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const item = items[i];
    rows.push(
      <div
        key={itemKey(item)}
        style={{ position: 'absolute', top: i * rowHeight, left: 0, right: 0, height: rowHeight }}
      >
        {renderRow(item, i)}
      </div>,
    );
  }

  return (
    <div
      ref={el}
      data-testid={testId}
      style={{ overflowY: 'auto', height: '100%', position: 'relative' }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div style={{ height: items.length * rowHeight, position: 'relative' }}>{rows}</div>
    </div>
  );
}
