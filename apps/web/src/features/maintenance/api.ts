// Typed calls of /api/maintenance/* (issue 18): a device's reminders and meters, the fleet's due list, changes.
import { api } from '../../api/client.ts';

export type MaintenanceBy = 'km' | 'hours' | 'date';
export type MaintenanceStatus = 'ok' | 'due' | 'overdue' | 'done';

export interface MaintenanceItem {
  id: string;
  terminalID: string;
  name: string;
  kind: string;
  by: MaintenanceBy;
  dueKm: number | null;
  dueHours: number | null;
  dueDate: string | null;
  remindBefore: number;
  intervalKm: number | null;
  intervalHours: number | null;
  intervalMonths: number | null;
  note: string;
  status: MaintenanceStatus;
  remaining: number | null;
  lastDoneAt: string | null;
  createdBy: string;
}

export interface Meters {
  odometerKm: number;
  engineHours: number;
  statOdometerKm: number;
  statEngineHours: number;
  odometerOffsetKm: number;
  engineHoursOffset: number;
}

export type ItemInput = Pick<MaintenanceItem, 'name' | 'by'> &
  Partial<
    Pick<
      MaintenanceItem,
      | 'kind'
      | 'dueKm'
      | 'dueHours'
      | 'dueDate'
      | 'remindBefore'
      | 'intervalKm'
      | 'intervalHours'
      | 'intervalMonths'
      | 'note'
    >
  >;

export const findMaintenance = (terminalID: string) =>
  api<{ meters: Meters; items: MaintenanceItem[] }>('/maintenance/find', { terminalID });
export const dueMaintenance = () => api<(MaintenanceItem & { deviceName: string })[]>('/maintenance/dueList', {});
export const addMaintenance = (terminalID: string, item: ItemInput) =>
  api<{ id: string }>('/maintenance/add', { terminalID, ...item });
export const updateMaintenance = (id: string, item: ItemInput) =>
  api<{ id: string }>('/maintenance/update', { id, ...item });
export const doneMaintenance = (id: string) => api<{ id: string }>('/maintenance/done', { id });
export const deleteMaintenance = (id: string) => api<{ id: string }>('/maintenance/delete', { id });
export const setMeters = (terminalID: string, m: { odometerKm?: number; engineHours?: number }) =>
  api<Meters>('/maintenance/setMeters', { terminalID, ...m });
