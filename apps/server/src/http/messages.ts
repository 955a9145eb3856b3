// Server-side lookup of message keys. The catalogue lives in @carhere/domain (spec §8 messages in every
// language, English as the fallback). A few texts exist only on the server (rate limit, parameter errors);
// the foundation's short keys are aliases of the domain's keys. Unknown keys are returned unchanged so a
// literal text still reaches the user.
import {
  factoryText,
  interpolate,
  isFactoryTextKey,
  isMessageKey,
  type MessageParams,
  translate as translateDomain,
} from '@carhere/domain';

/** Texts the domain catalogue does not carry (server-only answers). English is the fallback. */
const SERVER_ONLY: Record<string, { cn: string; en: string }> = {
  '407': { cn: '407', en: '407' },
  demoDisabled: { cn: '体验账号未开放', en: 'The demo account is not available' },
  'device.notFound': { cn: '设备不存在：{terminalID}', en: 'Device not found: {terminalID}' },
  'device.batchLimit': {
    cn: '一次最多操作 {max} 台设备',
    en: 'At most {max} devices per operation',
  },
  'device.importLimit': { cn: '一次最多导入 {max} 台设备', en: 'At most {max} devices per import' },
  'device.exportLimit': { cn: '一次最多导出 {max} 条', en: 'At most {max} rows per export' },
  'device.alreadyExists': { cn: '设备已存在', en: 'The device is already in the system' },
  'device.duplicateInInput': { cn: '重复的设备号：{imei}', en: 'Listed more than once: {imei}' },
  'device.invalidProtocol': { cn: '设备协议类型错误', en: 'Unknown device protocol type' },
  'device.invalidIconType': { cn: '图标类型必须是1到12', en: 'The icon type must be 1 to 12' },
  'device.invalidServiceTerm': { cn: '服务期限错误', en: 'Unknown service term' },
  'device.targetNotReachable': { cn: '目标用户不存在', en: 'The target user does not exist' },
  'account.notFound': { cn: '用户不存在', en: 'The user does not exist' },
  'account.roleNotAssignable': { cn: '不能设置该角色', en: 'This role cannot be assigned by this account' },
  'account.oldPasswordWrong': { cn: '原密码错误', en: 'The current password is wrong' },
  'account.passwordTooShort': {
    cn: '密码长度不能少于{min}位',
    en: 'The password must have at least {min} characters',
  },
  'account.notSelf': { cn: '不能对自己进行此操作', en: 'This cannot be done to your own account' },
  'account.subUsersNeedAgent': {
    cn: '该账号下还有下级用户，只能设置为代理商角色',
    en: 'This account has sub-users, so it must keep an agent role',
  },
  'job.notFound': { cn: '导入任务不存在', en: 'The import job does not exist' },
  'job.stalled': {
    cn: '导入在完成前中断（服务器已重启），请重新导入剩余的行',
    en: 'The import stopped before it finished (the server restarted); import the remaining lines again',
  },
};

/** The foundation's short keys and the domain keys they stand for. */
const ALIASES: Record<string, string> = {
  serverBusy: 'http.serverBusy',
  invalidParam: 'http.invalidParam',
  noPermissionAccount: 'permission.denied',
  noData: 'common.noData',
  // Login answers: the domain carries the spec's exact wording (§8) in every language.
  login200: 'login.200',
  login201: 'login.201',
  login202: 'login.202',
  login208: 'login.208',
  login209: 'login.209',
};

export function resolveMessage(key: string, lang: string, params: MessageParams = {}): string {
  const own = SERVER_ONLY[key];
  if (own) return interpolate(lang === 'cn' ? own.cn : own.en, params);
  const domainKey = ALIASES[key] ?? key;
  if (isMessageKey(domainKey)) return translateDomain(domainKey, lang, params);
  if (isFactoryTextKey(key)) return factoryText(key, lang, params);
  return interpolate(key, params);
}
