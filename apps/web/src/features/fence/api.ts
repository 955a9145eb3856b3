// Typed calls of /api/fence/* (fences in WGS-84, see apps/server/src/modules/fence).
import type { FenceAlarmType, FenceShape, FenceState } from '@carhere/domain';
import { api } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';

export interface Fence {
  id: string;
  userId: string;
  username: string;
  name: string;
  shape: FenceShape;
  lat: number | null;
  lon: number | null;
  radius: number | null;
  minLat: number | null;
  minLon: number | null;
  maxLat: number | null;
  maxLon: number | null;
  /** polygon vertices [lat, lon]; null for circles and rectangles */
  points?: [number, number][] | null;
  alarmType: FenceAlarmType;
  state: FenceState;
  deviceCount: number;
  createdAt: string;
  updatedAt: string;
}

export type FenceGeometry =
  | { shape: 'circle'; lat: number; lon: number; radius: number }
  | { shape: 'rectangle'; minLat: number; minLon: number; maxLat: number; maxLon: number }
  | { shape: 'polygon'; points: [number, number][] };

export interface FenceDevice {
  deviceId: string;
  terminalID: string;
  displayName: string;
  inside: boolean | null;
  changedAt: string | null;
  linkedAt: string;
}

export function findFences(body: { name?: string; pageNum: number; pageSize: number }, signal?: AbortSignal) {
  return api<Page<Fence>>('/fence/find', body, { signal });
}

export function findFencesOfDevice(terminalID: string, signal?: AbortSignal) {
  return api<Fence[]>('/fence/findByDevice', { terminalID }, { signal });
}

export function addFence(
  body: { name: string; alarmType: FenceAlarmType; state?: FenceState; terminalIDs?: string[] } & FenceGeometry,
) {
  return api<Fence>('/fence/add', body);
}

export function updateFence(body: { id: string; name?: string; alarmType?: FenceAlarmType } & Partial<FenceGeometry>) {
  return api<Fence>('/fence/update', body);
}

export function setFenceState(id: string, state: FenceState) {
  return api<Fence>('/fence/setState', { id, state });
}

export function deleteFence(id: string) {
  return api<{ deleted: number }>('/fence/delete', { id });
}

export function assignDevices(id: string, terminalIDs: string[]) {
  return api<{ assigned: number; total: number }>('/fence/assign', { id, terminalIDs });
}

export function unassignDevices(id: string, terminalIDs: string[]) {
  return api<{ removed: number }>('/fence/unassign', { id, terminalIDs });
}

export function findFenceDevices(id: string, pageNum: number, pageSize: number, signal?: AbortSignal) {
  return api<Page<FenceDevice>>('/fence/findDevices', { id, pageNum, pageSize }, { signal });
}

export function geometryOf(f: Fence): FenceGeometry {
  if (f.shape === 'circle') return { shape: 'circle', lat: f.lat ?? 0, lon: f.lon ?? 0, radius: f.radius ?? 0 };
  if (f.shape === 'polygon') return { shape: 'polygon', points: f.points ?? [] };
  return {
    shape: 'rectangle',
    minLat: f.minLat ?? 0,
    minLon: f.minLon ?? 0,
    maxLat: f.maxLat ?? 0,
    maxLon: f.maxLon ?? 0,
  };
}
