// Request bodies and permissions of the statistics endpoints (routes.ts), shared with the exports.
import { STATISTICS_PAGE_SIZE, STAY_MIN_SECONDS_RANGE } from '@carhere/domain';
import { z } from 'zod';
import { noProcessSchema } from '../custself/specialBrand.ts';
import { idSchema, instantSchema, terminalIdSchema } from '../location/params.ts';
import { PAST_DUE_FILTERS } from './queries.ts';
import { selectionFields } from './select.ts';

export const STAT_PERMISSIONS = {
  mileage: ['main:stat_mileage'],
  stay: ['main:stat_stay'],
  trips: ['main:stat_stay', 'main:stat_mileage'],
  alarms: ['main:stat_alarms'],
  pastDue: ['main:stat_pastdue'],
  battery: ['main:stat'],
  export: ['main:stat_export'],
} as const;

const paging = {
  pageNum: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(STATISTICS_PAGE_SIZE).default(STATISTICS_PAGE_SIZE),
};
const range = { startTime: instantSchema, endTime: instantSchema };

export const statFindBody = z.object({ ...selectionFields, ...range, ...paging });
export const staysBody = z.object({
  ...selectionFields,
  terminalIDs: z.array(terminalIdSchema).min(1).max(100),
  ...range,
  minSeconds: z.number().int().min(STAY_MIN_SECONDS_RANGE[0]).max(STAY_MIN_SECONDS_RANGE[1]).optional(),
  ...paging,
});
export const tripsBody = z.object({
  ...selectionFields,
  terminalIDs: z.array(terminalIdSchema).min(1).max(100),
  ...range,
  ...paging,
});
export const byUserIdsBody = z.object({ userIds: z.array(idSchema).min(1).max(1000), ...range, ...paging });
export const fenceVisitsBody = z.object({
  ...selectionFields,
  fenceIds: z.array(idSchema).max(1000).optional(),
  ...range,
  ...paging,
});
export const alarmsBody = z.object({
  ...selectionFields,
  ...range,
  /** Only this alarm code. */
  type: z.number().int().min(0).max(32767).optional(),
  /** Also answer the alarm rows behind the counts (paged by pageNum / pageSize). */
  rows: z.boolean().optional(),
  ...paging,
});
export const pastDueBody = z.object({
  userId: idSchema.optional(),
  filter: z.enum(PAST_DUE_FILTERS),
  noProcess: noProcessSchema.optional(),
  ...paging,
});
export const batteryBody = z.object({
  ...selectionFields,
  /** Low at or under this level (%), default 10. */
  threshold: z.number().min(0).max(100).optional(),
  lowOnly: z.boolean().optional(),
  ...paging,
});
