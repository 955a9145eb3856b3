// Answers of the System screen's settings not in the domain catalogue.
import type { LocalTexts } from '../fence/localized.ts';

export const NOTICE_TEXTS: LocalTexts = {
  endsInPast: { cn: '结束时间必须晚于现在', en: 'The end time must be in the future' },
  startsAfterEnd: { cn: '开始时间必须早于结束时间', en: 'The start time must be before the end time' },
  demoUserMissing: { cn: '体验账号不存在：{username}', en: 'The demo account does not exist: {username}' },
  demoUserRole: {
    cn: '体验账号只能是普通用户账号',
    en: 'The demo account must be an end-user account (role user)',
  },
  apiKeyInvalid: { cn: 'API密钥无效或已停用', en: 'The API key is not valid or has been revoked' },
  apiKeyUserExpired: { cn: '用户已过期', en: 'user expired' },
  apiKeyNotFound: { cn: 'API密钥不存在', en: 'The API key does not exist' },
  userNotReachable: { cn: '目标用户不存在', en: 'The target user does not exist' },
};
