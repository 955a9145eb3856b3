import { MESSAGE_TRANSLATIONS } from './i18n/index.ts';
import { type ExtraLanguage, isLanguage, type Language } from './languages.ts';

/**
 * One message in every language we have. cn and en are required; the other nine languages of spec §1
 * are optional and fall back to en, so a translator adds e.g. `vi: '…'` to an entry and nothing else.
 */
export type MessageTexts = { readonly cn: string; readonly en: string } & {
  readonly [L in ExtraLanguage]?: string;
};

/**
 * The cn and en texts of every message: spec §5's form messages, spec §8's error catalogue (login codes
 * 200–209, session code 407, network and server failures, all listed messages), command and oil-control
 * texts. Placeholders are `{name}` and are filled by `translate`. The other languages live in ./i18n.
 */
const CN_EN_MESSAGES = {
  // Login result codes (spec §8, its exact wording) and the session code 407.
  'login.200': { cn: '登录成功', en: 'login successful' },
  'login.201': { cn: '用户名错误', en: 'user name error' },
  'login.202': { cn: '密码错误', en: 'wrong password' },
  'login.208': { cn: '用户已过期', en: 'user expired' },
  'login.209': { cn: '用户名或密码错误', en: 'wrong username or password' },
  // Sign-in security (issue 12): throttling, two-factor sign-in, passwords to change at first sign-in.
  'login.rateLimited': {
    cn: '登录尝试过多，请 {seconds} 秒后再试',
    en: 'Too many login attempts, please try again in {seconds} seconds',
  },
  'login.totpRequired': {
    cn: '请输入身份验证器应用中的6位验证码',
    en: 'Enter the 6-digit code from your authenticator app',
  },
  'login.totpWrong': { cn: '验证码错误', en: 'The verification code is wrong' },
  'login.backToPassword': { cn: '返回密码登录', en: 'Back to the password' },
  'login.ticketExpired': {
    cn: '登录已超时，请重新输入密码',
    en: 'The sign-in has expired, please enter your password again',
  },
  'login.linkInvalid': {
    cn: '登录链接无效、已过期或已使用，请向销售商索取新链接',
    en: 'The sign-in link is not valid, has expired or was already used; ask the seller for a new one',
  },
  'account.mustChangePassword': { cn: '请先修改密码后再继续', en: 'You must change your password before continuing' },
  'account.totpEnrolRequired': {
    cn: '此账号必须开启两步验证，请先完成设置',
    en: 'This account must use two-factor sign-in: set it up before continuing',
  },
  'account.totpNotPending': { cn: '请先开始设置两步验证', en: 'Start the two-factor set-up first' },
  'account.totpAlreadyEnabled': { cn: '两步验证已开启', en: 'Two-factor sign-in is already on' },
  'account.totpNotEnabled': { cn: '两步验证未开启', en: 'Two-factor sign-in is not on' },
  'account.passwordUnchanged': {
    cn: '新密码不能与当前密码相同',
    en: 'The new password must differ from the current one',
  },
  'http.tooManyRequests': {
    cn: '请求过于频繁，请 {seconds} 秒后再试',
    en: 'Too many requests, please try again in {seconds} seconds',
  },
  'session.407': { cn: '登录已失效，请重新登录', en: 'Your session has expired, please log in again' },
  'session.loginRequired': { cn: '请先登录', en: 'Please log in first' },

  // Network and server (spec §8).
  'http.networkError': { cn: '网络问题，请稍后再试！', en: 'Network problem, please try again later!' },
  'http.serverBusy': { cn: '服务器繁忙，请稍后再试', en: 'the server is busy, please try later' },
  'http.badRequest': { cn: '请求参数错误', en: 'Invalid request' },
  'http.invalidParam': { cn: '参数错误：{field}', en: 'Invalid parameter: {field}' },
  'tip.server.err': { cn: '服务器错误，保存失败', en: 'Server error, could not save' },
  'route.notFound': { cn: '哎呀！老司机迷路了……', en: 'Whoops! The old driver is gone...' },

  // Permission and device access (spec §4, §8).
  'permission.denied': { cn: '该账号没有权限进行此操作！', en: 'This account has no permission to do this!' },
  'permission.noFeature': { cn: '没有权限使用该功能！', en: 'No permission to use this feature!' },
  'permission.noFunction': { cn: '没有权限使用此功能', en: 'no permission to use this function' },
  'device.unsupported': { cn: '该设备不支持此功能！', en: 'The device does not support this feature!' },
  'device.notActivated': {
    cn: '设备未激活，无法正常使用！',
    en: 'The device is not activated and cannot be used normally!',
  },
  'device.expired': {
    cn: '设备已过期，请联系设备服务商！',
    en: "The device has expired, please contact the device's service provider!",
  },
  'device.selectFirst': { cn: '请先选择设备', en: 'Please select a device first' },
  'device.plateConflict': {
    cn: '该车牌号已被其他设备使用，请重新输入',
    en: 'This plate number is used by another device, please enter a new one',
  },

  // General (spec §8).
  'common.repeatOperation': { cn: '请勿重复操作！', en: 'Please do not repeat the operation!' },
  'common.noLocation': { cn: '暂无位置信息', en: 'No location information' },
  'common.noData': { cn: '暂无数据', en: 'No data found' },
  'common.enterKeyword': { cn: '请输入搜索关键字', en: 'Please enter a search keyword' },
  'common.selectFirst': { cn: '请先选择要操作的项', en: 'Please select items first' },
  'common.liveAlarmUnsupported': { cn: '当前浏览器不支持实时报警', en: 'This browser does not support live alarms' },
  'table.empty': { cn: '暂无数据', en: 'No data' },
  'map.keyMissing': { cn: '未获取到地图配置', en: 'map configuration not obtained' },
  'map.scriptLoadFailed': { cn: '地图脚本加载失败', en: 'Failed to load the map script' },
  'map.initFailed': { cn: '地图初始化失败', en: 'Failed to initialise the map' },

  // Success and failure of the common actions (spec §8).
  'action.save.success': { cn: '保存成功', en: 'Saved successfully' },
  'action.save.failure': { cn: '保存失败', en: 'Save failed' },
  'action.delete.success': { cn: '删除成功', en: 'Deleted successfully' },
  'action.delete.failure': { cn: '删除失败', en: 'Delete failed' },
  'action.transfer.success': { cn: '转移成功', en: 'Transferred successfully' },
  'action.transfer.failure': { cn: '转移失败', en: 'Transfer failed' },
  'action.upload.success': { cn: '上传成功', en: 'Uploaded successfully' },
  'action.upload.failure': { cn: '上传失败', en: 'Upload failed' },
  'action.export.success': { cn: '导出成功', en: 'Exported successfully' },
  'action.export.failure': { cn: '导出失败', en: 'Export failed' },

  // Accounts and quotas (spec §5, §8).
  'account.usernameTaken': { cn: '该用户名已被使用！', en: 'The user name is already in use!' },
  'account.usernameInvalid': { cn: '请输入正确的用户名！', en: 'Enter the correct username!' },
  'account.transferToSelf': { cn: '不能转移给自己', en: 'You cannot transfer to yourself' },
  'account.transferToOwner': {
    cn: '设备已属于该账号，无需转移',
    en: 'The device already belongs to this account',
  },
  'account.moveUnderSubordinate': {
    cn: '不能将上级账号移动到其下级账号之下',
    en: 'An account cannot be moved under one of its own subordinates',
  },
  'account.sellToSelf': { cn: '不能销售给自己', en: 'You cannot sell to yourself' },
  'account.hasSubAgents': {
    cn: '该账号下还有下级代理，不能删除',
    en: 'This account still has sub-agents and cannot be deleted',
  },
  'account.hasDevices': {
    cn: '该账号下还有设备，不能删除',
    en: 'This account still has devices and cannot be deleted',
  },
  'account.noSubUsers': { cn: '非代理商账号不能添加下级用户', en: 'A non-agent account cannot have sub-users' },
  'account.passwordMismatch': { cn: '两次输入的密码不一致', en: 'The two passwords do not match' },
  'quota.remainingInsufficient': { cn: '当前剩余数量不足！', en: 'The current remaining quantity is insufficient!' },
  'quota.importInsufficient': {
    cn: '剩余导入数量不足，无法导入这些设备！',
    en: 'There are not enough imports left to import these devices!',
  },
  'quota.createSubAgent': {
    cn: '导入额度不足，请新建下级代理后再导入',
    en: 'Not enough import quota: create a new sub-agent to import',
  },
  'fence.hasDevices': {
    cn: '该围栏还关联着设备，请先移除设备再删除',
    en: 'The fence still has devices; remove them before deleting it',
  },

  // Form validation (spec §5).
  'validation.required': { cn: '{field}不能为空', en: "{field} can't be empty" },
  'validation.email': { cn: '请输入正确的邮箱地址', en: 'Please enter a valid e-mail address' },
  'validation.numeric': { cn: '只能输入数字', en: 'Only digits are allowed' },
  'validation.maxLength': { cn: '长度不能超过{max}个字符', en: 'At most {max} characters' },
  'validation.minLength': { cn: '长度不能少于{min}个字符', en: 'At least {min} characters' },
  'validation.minValue': { cn: '不能小于{min}', en: 'Must be at least {min}' },
  'validation.maxValue': { cn: '不能大于{max}', en: 'Must be at most {max}' },
  'validation.number': { cn: '请输入数字', en: 'Please enter a number' },
  'validation.confirmed': { cn: '两次输入不一致', en: 'the two inputs do not match' },
  'validation.sim': { cn: '请输入正确的SIM卡号', en: 'Please enter the correct SIM card number' },
  'validation.telephone': { cn: '请输入正确的电话号码', en: 'Please enter the correct telephone number' },
  'validation.carNumber': { cn: '请输入正确的车牌号', en: 'please enter correct car number' },
  'validation.fenceRadius': {
    cn: '围栏半径须在{min}到{max}米之间',
    en: 'The fence radius must be between {min} and {max} m',
  },
  'validation.trackDays': { cn: '轨迹查询时间不能超过{days}天', en: 'A track query cannot span more than {days} days' },
  'validation.statDays': {
    cn: '统计查询时间不能超过{days}天',
    en: 'A statistics query cannot span more than {days} days',
  },
  'validation.exportLimit': {
    cn: '每次导出最多{devices}台设备、{days}天',
    en: 'An export can cover at most {devices} devices and {days} days',
  },
  'validation.trackDevices': { cn: '最多同时查看{max}台设备的轨迹', en: 'At most {max} devices at once' },
  'validation.rangeOrder': { cn: '开始时间不能晚于结束时间', en: 'The start time cannot be later than the end time' },
  'validation.rangeRequired': { cn: '请选择开始时间和结束时间', en: 'Please choose a start time and an end time' },
  'validation.imei808': { cn: '808协议设备号必须是11位数字', en: 'An 808-protocol IMEI must be exactly 11 digits' },
  'validation.imei808Duplicate': { cn: '808设备号重复：{imei}', en: 'Duplicate 808 IMEI: {imei}' },
  'validation.imeiLine': { cn: '设备号必须是10到15位字母或数字', en: 'An IMEI must be 10 to 15 letters or digits' },
  'validation.imeiLength15': { cn: '设备号必须是15位', en: 'An IMEI must be exactly 15 characters' },
  'validation.timeMode': {
    cn: '请输入不小于0的整数分钟（0为关闭）',
    en: 'Enter whole minutes, 0 or more (0 turns it off)',
  },
  'validation.powerOnTime': { cn: '请输入正确的时间，例如18:30', en: 'Enter a time such as 18:30' },
  'validation.intervalHours': { cn: '请输入正整数小时', en: 'Enter a whole number of hours, at least 1' },
  'validation.mixedMode': {
    cn: '未开启混合模式时只能运行一种模式',
    en: 'Without mixed mode the device runs one mode only',
  },
  'validation.tyreThresholds': {
    cn: '胎压下限须低于上限，高温阈值须高于0°C',
    en: 'The low tyre pressure must be below the high one, and the high temperature above 0 °C',
  },
  'validation.oilVolume': {
    cn: '请选择1.0至29.9升的油箱容量（每档0.1升）',
    en: 'Choose a tank volume from 1.0 to 29.9 L, in steps of 0.1 L',
  },

  // Track (spec §8).
  'track.notFound': { cn: '该日期没有轨迹', en: 'No track found for this date' },
  'track.notLoaded': { cn: '轨迹还未加载完成', en: 'The track is not fully loaded yet' },

  // Import result counts (spec §8).
  'import.success': { cn: '成功：{count}', en: 'Succeeded: {count}' },
  'import.failure': { cn: '失败：{count}', en: 'Failed: {count}' },
  'import.unqualified': { cn: '不合格：{count}', en: 'Unqualified: {count}' },
  'import.noFactoryTest': { cn: '无工厂测试记录：{count}', en: 'No factory test record: {count}' },
  'import.notPreset': { cn: '未预置：{count}', en: 'Not preset: {count}' },
  'import.alreadyStocked': { cn: '已入库：{count}', en: 'Already stocked: {count}' },

  // Commands (spec §4, §8).
  'command.result.1': { cn: '成功', en: 'Success' },
  'command.result.2': { cn: '超时', en: 'Timeout' },
  'command.result.3': { cn: '错误', en: 'Error' },
  'command.onlineNormalMode': {
    cn: '设备已在线，无需发送正常模式指令',
    en: 'device already online, no need to send normal-mode command',
  },
  'command.offlineNotAllowed': { cn: '离线设备不能发送指令！', en: "Offline devices can't send instructions!" },
  'command.nbDeviceIdMissing': { cn: '找不到该设备的deviceId', en: 'Cannot find deviceId for this device' },
  'command.timeout': {
    cn: '指令超时，可能是连接延迟，请重试',
    en: 'The command timed out; this may be a connection delay, please retry',
  },
  'command.askSaveOffline': {
    cn: '指令超时，是否保存为离线指令？设备下次连接时将再次发送',
    en: 'The command timed out. Save it as an offline command, sent when the device next connects?',
  },
  'command.savedOffline': {
    cn: '已保存为离线指令，设备下次连接时将发送该指令',
    en: 'Saved as an offline command; it will be sent when the device next connects',
  },
  'command.reply': { cn: '设备回复：{reply}', en: 'Device reply: {reply}' },
  'command.empty': { cn: '指令内容不能为空', en: 'The command text cannot be empty' },
  'command.invalidParameter': { cn: '指令参数错误：{name}', en: 'Invalid command parameter: {name}' },

  // Oil / electric relay replies (cn verbatim from catalogues/data/oil-control-replies.json).
  'oil.success': { cn: '设置成功', en: 'Set successfully' },
  'oil.timeout': { cn: '请求超时', en: 'Request timed out' },
  'oil.parameterError': { cn: '指令参数错误', en: 'Command parameter error' },
  'oil.commandError': { cn: '指令错误', en: 'Command error' },
  'oil.alreadyCut': {
    cn: '断油电失败！ 已经处于断油电状态！',
    en: 'Cut failed! Fuel and power are already cut!',
  },
  'oil.gpsNotFixed': {
    cn: '断油电失败！，ACC 开启时，GPS没有定位或者速度大于20KM/H, 断油操作延后!',
    en: 'Cut failed! With ACC on, GPS has no fix or the speed is over 20 km/h; the cut is delayed!',
  },
  'oil.alreadyResumed': {
    cn: '恢复油电失败！已经处于油电恢复状态！',
    en: 'Restore failed! Fuel and power are already restored!',
  },
  'oil.controlFailed': { cn: '控制油电失败！', en: 'Fuel and power control failed!' },
  'oil.supplyCutOff': {
    cn: '已处于油电切断状态，命令未运行！',
    en: 'Fuel and power are already cut off; the command did not run!',
  },
  'oil.supplyResumed': {
    cn: '已经在油电供应状态下恢复，命令没有运行！',
    en: 'Fuel and power supply is already on; the command did not run!',
  },
  'oil.noResponse': { cn: '设置失败', en: 'Setting failed' },
  'oil.requestTimeout': { cn: '设置超时', en: 'Setting timed out' },
  'oil.offlineSaved': {
    cn: '设置成功,机器下次连接系统时将再次发送该指令!',
    en: 'Saved; the command will be sent again when the device next connects!',
  },
  // Factory back office (tasks, logs, GW005 test, NB-IoT ids).
  'factory.imeiUnknown': { cn: '该IMEI未注册', en: 'This IMEI is not registered' },
  'factory.nbIdTaken': {
    cn: '该NB-IoT设备ID已属于另一台设备',
    en: 'This NB-IoT device id already belongs to another device',
  },

  // NB-IoT push callbacks (server answers to the IoT platform).
  'nb.callbackTokenUnset': {
    cn: 'NB-IoT 回调已关闭：服务器未配置 NB_CALLBACK_TOKEN',
    en: 'NB-IoT callbacks are closed: NB_CALLBACK_TOKEN is not configured on the server',
  },

  // Notification rules (issue 18): a webhook may only reach the public internet.
  'notify.webhookRefused': {
    cn: 'Webhook 地址不可用：{url}（只允许 http(s) 地址，且主机必须解析为公网地址）',
    en: 'The webhook address is refused: {url} (only http(s) addresses whose host resolves to a public internet address)',
  },
  // A browser push subscription's endpoint likewise (the server POSTs the push message to it).
  'notify.pushRefused': {
    cn: '推送服务地址不可用：{url}（只允许 http(s) 地址，且主机必须解析为公网地址）',
    en: 'The push service address is refused: {url} (only http(s) addresses whose host resolves to a public internet address)',
  },
} as const satisfies Record<string, MessageTexts>;

export type MessageKey = keyof typeof CN_EN_MESSAGES;

/** Every message with its cn and en texts and the texts ./i18n has for the other languages. */
export type MessageCatalogue = {
  readonly [K in MessageKey]: (typeof CN_EN_MESSAGES)[K] & { readonly [L in ExtraLanguage]?: string };
};

function withTranslations(): MessageCatalogue {
  const catalogue: Record<string, MessageTexts> = {};
  for (const [key, base] of Object.entries(CN_EN_MESSAGES) as [MessageKey, MessageTexts][]) {
    const texts: Record<string, string> = { ...base };
    for (const [lang, translations] of Object.entries(MESSAGE_TRANSLATIONS)) {
      const text = translations[key];
      if (text !== undefined) texts[lang] = text;
    }
    catalogue[key] = Object.freeze(texts as MessageTexts);
  }
  return Object.freeze(catalogue) as MessageCatalogue;
}

/** The message catalogue in all 11 languages of spec §1 (a text missing in a language falls back to en). */
export const MESSAGES: MessageCatalogue = withTranslations();
export type MessageParams = Readonly<Record<string, string | number>>;

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && Object.hasOwn(MESSAGES, value);
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** Replaces `{name}` placeholders; a placeholder without a value is left as it is. */
export function interpolate(text: string, params?: MessageParams): string {
  if (!params) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/**
 * The text of a message in a language, falling back to en when the language has no text
 * (or is not one we know). An unknown key is returned as it is, so a missing entry shows up
 * on screen instead of crashing.
 */
export function translate(key: MessageKey | string, lang: Language | string, params?: MessageParams): string {
  if (!isMessageKey(key)) return key;
  const texts: MessageTexts = MESSAGES[key];
  const text = (isLanguage(lang) ? texts[lang] : undefined) ?? texts.en;
  return interpolate(text, params);
}

/** Code 407 in a response message means the session is gone: clear user info and go to login (spec §4, §8). */
export const SESSION_EXPIRED_CODE = 407;

export function isSessionExpired(meta: { message?: unknown; code?: unknown } | null | undefined): boolean {
  if (!meta) return false;
  return String(meta.message ?? '').trim() === String(SESSION_EXPIRED_CODE) || meta.code === SESSION_EXPIRED_CODE;
}
