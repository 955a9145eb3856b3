// What can be exported (countExport): each statistics answer with its request body, the permission it needs
// besides main:stat_export, and its columns (field of the answer row → header label key).
import type { z } from 'zod';
import {
  alarmsBody,
  batteryBody,
  byUserIdsBody,
  fenceVisitsBody,
  pastDueBody,
  STAT_PERMISSIONS,
  statFindBody,
  staysBody,
  tripsBody,
} from './bodies.ts';

export const EXPORT_KINDS = [
  'find',
  'findAllMileage',
  'findByUserIds',
  'stays',
  'trips',
  'fenceVisits',
  'alarms',
  'pastDue',
  'battery',
] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export interface ExportColumn {
  field: string;
}

/** Header names: the domain's STAT_COLUMN_LABELS by field, in the caller's language. */
const cols = (...fields: string[]): ExportColumn[] => fields.map((field) => ({ field }));

const TOTALS = [
  'mileage',
  'runSeconds',
  'stopCount',
  'stopSeconds',
  'engineSeconds',
  'idleSeconds',
  'maxSpeed',
  'overspeedCount',
  'alarmCount',
];

export const EXPORT_COLUMNS: Record<ExportKind, ExportColumn[]> = {
  find: cols('terminalID', 'displayName', 'statsticDate', ...TOTALS),
  findAllMileage: cols('terminalID', 'displayName', ...TOTALS, 'days'),
  findByUserIds: cols('username', 'nickname', 'deviceCount', ...TOTALS, 'days'),
  stays: cols('terminalID', 'displayName', 'startTime', 'endTime', 'seconds', 'lat', 'lon', 'address', 'accOnSeconds'),
  trips: cols(
    'terminalID',
    'displayName',
    'startTime',
    'endTime',
    'seconds',
    'startLat',
    'startLon',
    'startAddress',
    'endLat',
    'endLon',
    'endAddress',
    'distance',
    'avgSpeed',
    'maxSpeed',
    'driver',
  ),
  fenceVisits: cols('terminalID', 'displayName', 'fenceName', 'enterTime', 'exitTime', 'seconds'),
  alarms: cols('terminalID', 'displayName', 'type', 'count'),
  pastDue: cols('terminalID', 'displayName', 'username', 'platformExpireTime', 'userExpireTime'),
  battery: cols('terminalID', 'displayName', 'battery', 'time', 'low'),
};

export const EXPORT_BODIES: Record<ExportKind, z.ZodTypeAny> = {
  find: statFindBody,
  findAllMileage: statFindBody,
  findByUserIds: byUserIdsBody,
  stays: staysBody,
  trips: tripsBody,
  fenceVisits: fenceVisitsBody,
  alarms: alarmsBody,
  pastDue: pastDueBody,
  battery: batteryBody,
};

export const EXPORT_PERMISSION: Record<ExportKind, readonly string[]> = {
  find: STAT_PERMISSIONS.mileage,
  findAllMileage: STAT_PERMISSIONS.mileage,
  findByUserIds: STAT_PERMISSIONS.mileage,
  stays: STAT_PERMISSIONS.stay,
  trips: STAT_PERMISSIONS.trips,
  fenceVisits: STAT_PERMISSIONS.alarms,
  alarms: STAT_PERMISSIONS.alarms,
  pastDue: STAT_PERMISSIONS.pastDue,
  battery: STAT_PERMISSIONS.battery,
};
