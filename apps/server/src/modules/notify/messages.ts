// What a notification says, in the recipient's language: the e-mail (plain text and HTML with a map link), the
// push message and the webhook body (issue 18's contract).
import { formatDateTime, isValidTimeZone, notifyEventTitle, notifyWord } from '@carhere/domain';
import type { NotifyPayload } from './store.ts';

export function mapLink(lat: number, lon: number): string {
  const la = lat.toFixed(6);
  const lo = lon.toFixed(6);
  return `https://www.openstreetmap.org/?mlat=${la}&mlon=${lo}#map=16/${la}/${lo}`;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function titleOf(p: NotifyPayload): string {
  return p.alarmName && p.event.startsWith('alarm:') ? p.alarmName : notifyEventTitle(p.event, p.lang, p.alarmCode);
}

function lines(p: NotifyPayload): [string, string][] {
  const zone = isValidTimeZone(p.timeZone) ? p.timeZone : '+08:00';
  const out: [string, string][] = [
    [notifyWord('device', p.lang), p.deviceName ? `${p.deviceName} (${p.terminalID})` : p.terminalID],
    [notifyWord('time', p.lang), formatDateTime(Date.parse(p.time), zone, 'YYYY-MM-DD HH:mm:ss Z')],
  ];
  if (p.lat !== null && p.lon !== null) {
    out.push([notifyWord('position', p.lang), p.address ?? `${p.lat.toFixed(6)}, ${p.lon.toFixed(6)}`]);
  }
  if (p.speed !== null) out.push([notifyWord('speed', p.lang), `${Math.round(p.speed)} km/h`]);
  return out;
}

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export function mailOf(p: NotifyPayload): MailContent {
  const title = titleOf(p);
  const subject = `${title} · ${p.deviceName || p.terminalID}`;
  const rows = lines(p);
  const link = p.lat !== null && p.lon !== null ? mapLink(p.lat, p.lon) : null;
  const text = [
    title,
    '',
    ...rows.map(([k, v]) => `${k}: ${v}`),
    ...(p.detail ? [p.detail] : []),
    ...(link ? ['', `${notifyWord('map', p.lang)}: ${link}`] : []),
  ].join('\n');
  const html = [
    `<h2>${escapeHtml(title)}</h2>`,
    '<table>',
    ...rows.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`),
    '</table>',
    ...(p.detail ? [`<p>${escapeHtml(p.detail)}</p>`] : []),
    ...(link ? [`<p><a href="${escapeHtml(link)}">${escapeHtml(notifyWord('map', p.lang))}</a></p>`] : []),
  ].join('\n');
  return { subject, text, html };
}

export function pushMessageOf(
  p: NotifyPayload,
  uid: string,
): { id: string; title: string; body: string; url?: string } {
  const rows = lines(p);
  return {
    id: uid,
    title: titleOf(p),
    body: rows.map(([, v]) => v).join(' · '),
    url: p.lat !== null && p.lon !== null ? mapLink(p.lat, p.lon) : undefined,
  };
}

/** The webhook body: `id` is the delivery's uid (the same on every retry), `sentAt` this attempt's time. */
export function webhookBodyOf(p: NotifyPayload, uid: string, sentAt: Date): Record<string, unknown> {
  return {
    id: uid,
    event: p.event,
    terminalID: p.terminalID,
    deviceName: p.deviceName,
    time: p.time,
    sentAt: sentAt.toISOString(),
    lat: p.lat,
    lon: p.lon,
    speed: p.speed,
    ...(p.alarmCode !== undefined ? { alarmCode: p.alarmCode } : {}),
    ...(p.alarmName !== undefined ? { alarmName: p.alarmName } : {}),
    ...(p.address !== undefined ? { address: p.address } : {}),
    ...(p.detail !== undefined ? { detail: p.detail } : {}),
  };
}
