// The maintenance notice (spec §1), mounted once after login and on the login page ("on start", when the admin
// set it so): shown while it runs (until its end time), once per browser session and version of the notice.
import { isMaintenanceNoticeShown } from '@carhere/domain';
import { useQuery } from '@tanstack/react-query';
import { Modal, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callEnvelope } from '../../api/client.ts';

export interface Notice {
  title: string;
  content: string;
  startsAt: string | null;
  endsAt: string;
  showOnStart: boolean;
  version: string;
}

const SEEN_KEY = 'noticeSeen';

async function fetchNotice(): Promise<Notice | null> {
  const env = await callEnvelope<Notice | null>('/notice', undefined, { method: 'GET' });
  return env.meta.success ? env.data : null;
}

/** Whether this browser session still has to show this version of the notice (`onStart`: on the login page). */
export function shouldShow(notice: Notice | null, seen: string | null, now: number, onStart = false): notice is Notice {
  return notice !== null && seen !== notice.version && isMaintenanceNoticeShown(notice, now, onStart);
}

export function MaintenanceNotice({ onStart = false }: { onStart?: boolean }) {
  const { t } = useTranslation('notice');
  const notice = useQuery({ queryKey: ['maintenanceNotice'], queryFn: fetchNotice, staleTime: 5 * 60_000 });
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (shouldShow(notice.data ?? null, sessionStorage.getItem(SEEN_KEY), Date.now(), onStart)) setOpen(true);
  }, [notice.data, onStart]);
  const n = notice.data;
  if (!n) return null;
  const close = () => {
    sessionStorage.setItem(SEEN_KEY, n.version);
    setOpen(false);
  };
  return (
    <Modal
      open={open}
      title={n.title}
      onOk={close}
      onCancel={close}
      okText={t('ok')}
      cancelButtonProps={{ style: { display: 'none' } }}
      data-testid="maintenance-notice"
    >
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{n.content}</Typography.Paragraph>
      <Typography.Text type="secondary">
        {t('until', { time: dayjs(n.endsAt).format('YYYY-MM-DD HH:mm') })}
      </Typography.Text>
    </Modal>
  );
}
