// Server-side lookup of message keys. The catalogue itself lives in @carhere/domain (spec §8 messages in
// every language); keys not found there are returned unchanged so a literal text still reaches the user.
const local: Record<string, { cn: string; en: string }> = {
  '407': { cn: '407', en: '407' },
  loginRateLimited: {
    cn: '登录尝试过多，请 {minutes} 分钟后再试',
    en: 'Too many login attempts, please try again in {minutes} minutes',
  },
  invalidParam: { cn: '参数错误：{field}', en: 'Invalid parameter: {field}' },
  serverBusy: { cn: '服务器繁忙，请稍后再试', en: 'the server is busy, please try later' },
  noPermissionAccount: { cn: '此账号无权限进行此操作！', en: 'This account has no permission to do this!' },
  noData: { cn: '暂无数据', en: 'No data found' },
  login200: { cn: '登录成功', en: 'login successful' },
  login201: { cn: '用户名错误', en: 'user name error' },
  login202: { cn: '密码错误', en: 'wrong password' },
  login208: { cn: '用户已过期', en: 'user expired' },
  login209: { cn: '用户名或密码错误', en: 'wrong username or password' },
  demoDisabled: { cn: '体验账号未开放', en: 'The demo account is not available' },
};

export function resolveMessage(key: string, lang: string, params: Record<string, string | number>): string {
  const entry = local[key];
  let text = entry ? (lang === 'cn' ? entry.cn : entry.en) : key;
  for (const [k, v] of Object.entries(params)) text = text.replaceAll(`{${k}}`, String(v));
  return text;
}
