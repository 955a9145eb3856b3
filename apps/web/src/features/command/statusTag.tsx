// Status and mode tags of command records.
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CommandRecord } from './api.ts';

const COLORS: Record<string, string> = {
  pending: 'gold',
  sent: 'blue',
  answered: 'green',
  timeout: 'orange',
  failed: 'red',
  expired: 'default',
  cancelled: 'default',
};

export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation('command');
  return (
    <Tag color={COLORS[status] ?? 'default'} data-testid={`command-status-${status}`}>
      {t(`status.${status}`, { defaultValue: status })}
    </Tag>
  );
}

export function ModeTag({ mode }: { mode: CommandRecord['mode'] }) {
  const { t } = useTranslation('command');
  return <Tag color={mode === 'offline' ? 'purple' : undefined}>{t(`mode.${mode}`)}</Tag>;
}
