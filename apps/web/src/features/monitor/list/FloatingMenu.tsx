// A context menu at the pointer (device list right-click); closes on any outside click or Escape.
import { Menu } from 'antd';
import { useEffect } from 'react';
import type { ContextMenuItem } from '../../../map/tools/MapContextMenu.tsx';

export interface FloatingMenuProps {
  x: number;
  y: number;
  items: ContextMenuItem[];
  onClose: () => void;
}

export function FloatingMenu({ x, y, items, onClose }: FloatingMenuProps) {
  useEffect(() => {
    const close = () => onClose();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    const timer = setTimeout(() => window.addEventListener('click', close), 0);
    window.addEventListener('keydown', onKey);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('click', close);
      window.removeEventListener('keydown', onKey);
    };
  }, [onClose]);
  return (
    <div
      data-testid="list-context-menu"
      style={{
        position: 'fixed',
        left: Math.min(x, window.innerWidth - 200),
        top: Math.min(y, window.innerHeight - items.length * 40 - 8),
        zIndex: 1200,
        boxShadow: '0 6px 16px rgba(0,0,0,.15)',
        borderRadius: 8,
        overflow: 'hidden',
      }}
    >
      <Menu
        selectable={false}
        style={{ width: 190, borderInlineEnd: 'none' }}
        items={items.map((i) => ({ key: i.key, label: i.label, icon: i.icon }))}
        onClick={({ key }) => {
          items.find((i) => i.key === key)?.onClick();
          onClose();
        }}
      />
    </div>
  );
}
