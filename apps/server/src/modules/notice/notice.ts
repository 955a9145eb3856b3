// The maintenance notice (spec §1): {title, content, startsAt?, endsAt} in settings, shown until its end.
import { isMaintenanceNoticeShown } from '@carhere/domain';
import type { AppContext } from '../../context.ts';
import { deleteSetting, readSetting, writeSetting } from '../map/settings.ts';
import type { Notice } from './schema.ts';

export const NOTICE_SETTING = 'maintenance_notice';

export async function readNotice(ctx: AppContext): Promise<Notice | null> {
  const stored = await readSetting<Partial<Notice>>(ctx, NOTICE_SETTING);
  if (!stored?.title || !stored.endsAt) return null;
  return {
    title: stored.title,
    content: stored.content ?? '',
    startsAt: stored.startsAt ?? null,
    endsAt: stored.endsAt,
    showOnStart: stored.showOnStart === true,
    version: stored.version ?? stored.endsAt,
  };
}

/** Shown from its start (if any) until its end: the domain's rule (spec §1). */
export function isNoticeActive(notice: Notice | null, now: number): notice is Notice {
  return isMaintenanceNoticeShown(notice, now);
}

export async function saveNotice(
  ctx: AppContext,
  input: { title: string; content: string; startsAt: Date | null; endsAt: Date; showOnStart: boolean },
): Promise<Notice> {
  const notice: Notice = {
    title: input.title,
    content: input.content,
    startsAt: input.startsAt ? input.startsAt.toISOString() : null,
    endsAt: input.endsAt.toISOString(),
    showOnStart: input.showOnStart,
    version: new Date().toISOString(),
  };
  await writeSetting(ctx, NOTICE_SETTING, notice);
  return notice;
}

export async function clearNotice(ctx: AppContext): Promise<void> {
  await deleteSetting(ctx, NOTICE_SETTING);
}
