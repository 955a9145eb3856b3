// Typed calls of notifications and scheduled reports (apps/server/src/modules/notify, reportSchedule).
import { api } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';

export type Channel =
  | { type: 'inApp' }
  | { type: 'email'; to: string[] }
  | { type: 'webhook'; url: string; secret: string }
  | { type: 'push' };

export interface RuleInput {
  name: string;
  events: string[];
  channels: Channel[];
  terminalIDs?: string[];
  deviceTypes?: string[];
  quietHours?: { from: string; to: string } | null;
  minIntervalSeconds?: number;
  params?: { offlineMinutes?: number; expiryDays?: number };
  enabled?: boolean;
}

export interface Rule extends Omit<RuleInput, 'terminalIDs' | 'deviceTypes'> {
  id: string;
  userId: string;
  username: string;
  terminalIDs: string[] | null;
  deviceTypes: string[] | null;
  quietHours: { from: string; to: string } | null;
  minIntervalSeconds: number;
  params: { offlineMinutes?: number; expiryDays?: number };
  enabled: boolean;
  updatedAt: string;
}

export interface Delivery {
  id: string;
  ruleId: string;
  ruleName: string;
  channel: string;
  event: string;
  terminalID: string;
  deviceName: string;
  time: string;
  status: string;
  attempts: number;
  response: string;
  test: boolean;
  createdAt: string;
  updatedAt: string;
}

export const findRules = (body: { pageNum: number; pageSize: number }) => api<Page<Rule>>('/notify/rules/find', body);
export const addRule = (body: RuleInput) => api<{ id: string }>('/notify/rules/add', body);
export const updateRule = (body: Partial<RuleInput> & { id: string }) => api<Rule>('/notify/rules/update', body);
export const deleteRule = (id: string) => api<null>('/notify/rules/delete', { id });
export const testRule = (id: string) => api<{ queued: number }>('/notify/rules/test', { id });
export const findDeliveries = (body: { ruleId?: string; pageNum: number; pageSize: number }) =>
  api<Page<Delivery>>('/notify/deliveries', body);
export const pushKey = () => api<{ publicKey: string }>('/notify/push/key', {});
export const pushSubscribe = (body: { endpoint: string; keys: { p256dh: string; auth: string } }) =>
  api<null>('/notify/push/subscribe', body);

export const REPORT_KINDS = ['findAllMileage', 'stays', 'trips', 'alarms', 'pastDue'] as const;
export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;

export interface Schedule {
  id: string;
  username: string;
  name: string;
  kind: (typeof REPORT_KINDS)[number];
  params: Record<string, unknown>;
  frequency: (typeof FREQUENCIES)[number];
  emails: string[];
  enabled: boolean;
  lastSend: { periodStart: string; periodEnd: string; status: string; rows: number; sentAt: string } | null;
}

export type ScheduleInput = Pick<Schedule, 'name' | 'kind' | 'params' | 'frequency' | 'emails' | 'enabled'>;

export const findSchedules = (body: { pageNum: number; pageSize: number }) =>
  api<Page<Schedule>>('/reportSchedule/find', body);
export const addSchedule = (body: ScheduleInput) => api<{ id: string }>('/reportSchedule/add', body);
export const updateSchedule = (body: Partial<ScheduleInput> & { id: string }) =>
  api<Schedule>('/reportSchedule/update', body);
export const deleteSchedule = (id: string) => api<null>('/reportSchedule/delete', { id });
export const sendScheduleNow = (id: string) => api<{ status: string }>('/reportSchedule/sendNow', { id });
