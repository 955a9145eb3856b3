// Typed calls of the customer map areas: vehicle checks, risk points, bus routes, grants
// (apps/server/src/modules/checks, risk, bus, grants). Coordinates are WGS-84.
import { api } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';

export interface AreaHit {
  deviceId: string;
  terminalID: string;
  displayName: string;
  firstTime: string;
  lastTime: string;
  points: number;
  lat: number;
  lon: number;
}

export interface Passage {
  enteredAt: string;
  leftAt: string;
  fixes: number;
  closest: number;
}

export interface PointHit {
  deviceId: string;
  terminalID: string;
  displayName: string;
  passages: Passage[];
}

export type AreaShape =
  | { shape: 'rectangle'; minLat: number; minLon: number; maxLat: number; maxLon: number }
  | { shape: 'polygon'; points: [number, number][] };

export function checkArea(body: AreaShape & { startTime?: number; endTime?: number }) {
  return api<{ total: number; cut: boolean; list: AreaHit[] }>('/checkCar/area', body);
}

export function checkPoint(body: { lat: number; lon: number; radius: number; startTime: number; endTime: number }) {
  return api<{ total: number; cut: boolean; list: PointHit[] }>('/checkCar/point', body);
}

export const RISK_KINDS = ['market', 'pawnshop', 'repair', 'border', 'other'] as const;
export type RiskKind = (typeof RISK_KINDS)[number];

export interface RiskPoint {
  id: string;
  userId: string;
  username: string;
  name: string;
  kind: RiskKind;
  lat: number;
  lon: number;
  radius: number;
  note: string;
  dwellMinutes: number;
  inside: number;
  updatedAt: string;
}

export type RiskPointInput = Pick<RiskPoint, 'name' | 'kind' | 'lat' | 'lon' | 'radius' | 'note' | 'dwellMinutes'>;

export function findRiskPoints(body: { name?: string; pageNum: number; pageSize: number }) {
  return api<Page<RiskPoint>>('/riskPoint/find', body);
}
export function addRiskPoint(body: RiskPointInput) {
  return api<RiskPoint>('/riskPoint/add', body);
}
export function updateRiskPoint(body: Partial<RiskPointInput> & { id: string }) {
  return api<RiskPoint>('/riskPoint/update', body);
}
export function deleteRiskPoint(id: string) {
  return api<null>('/riskPoint/delete', { id });
}
export function importRiskPoints(body: { text?: string; file?: { name: string; base64: string } }) {
  return api<{ added: number; failed: number; lines: { line: number; ok: boolean; field: string | null }[] }>(
    '/riskPoint/import',
    body,
  );
}

export interface RiskVisit {
  id: string;
  riskPointId: string;
  riskPointName: string;
  kind: string;
  deviceId: string;
  terminalID: string;
  displayName: string;
  enteredAt: string;
  leftAt: string | null;
  duration: number;
  alarmed: boolean;
}

export function findVisits(body: {
  terminalID?: string;
  startTime: number;
  endTime: number;
  pageNum: number;
  pageSize: number;
}) {
  return api<Page<RiskVisit>>('/riskPoint/visits', body);
}

export interface BusStop {
  name: string;
  lat: number;
  lon: number;
  radius: number;
}

export interface BusRoute {
  id: string;
  userId: string;
  username: string;
  name: string;
  stops: BusStop[];
  polyline: [number, number][];
  devices: { deviceId: string; terminalID: string; displayName: string }[];
  updatedAt: string;
}

export interface LiveBus {
  deviceId: string;
  terminalID: string;
  displayName: string;
  online: boolean;
  lat: number | null;
  lon: number | null;
  speed: number | null;
  posTime: string | null;
  atStop: number | null;
  nextStop: number | null;
  nextStopName: string | null;
  distance: number | null;
  etaSeconds: number | null;
  offRoute: number | null;
}

export function findBusRoutes(): Promise<BusRoute[]> {
  return api<BusRoute[]>('/bus/routes', undefined, { method: 'GET' });
}
export function addBusRoute(
  body: Omit<BusRoute, 'id' | 'userId' | 'username' | 'devices' | 'updatedAt'> & {
    terminalIDs: string[];
  },
) {
  return api<BusRoute>('/bus/add', body);
}
export function editBusRoute(
  body: Partial<Pick<BusRoute, 'name' | 'stops' | 'polyline'>> & {
    id: string;
    terminalIDs?: string[];
  },
) {
  return api<BusRoute>('/bus/edit', body);
}
export function deleteBusRoute(id: string) {
  return api<null>('/bus/delete', { id });
}
export function busLive(id: string) {
  return api<{ route: BusRoute; buses: LiveBus[] }>(`/bus/live?id=${encodeURIComponent(id)}`, undefined, {
    method: 'GET',
  });
}
