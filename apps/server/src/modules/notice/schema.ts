// Request and response schemas of the notice, demo account and API key endpoints.
import { z } from 'zod';
import { boundedDate } from '../../http/input.ts';

export const idSchema = z
  .union([z.string().regex(/^\d{1,18}$/), z.number().int().positive().max(Number.MAX_SAFE_INTEGER)])
  .transform(String);

/** A date as ISO text or epoch milliseconds. */
export const dateInput = boundedDate;

export const noticeSchema = z.object({
  title: z.string(),
  content: z.string(),
  startsAt: z.string().nullable(),
  endsAt: z.string(),
  /** spec §1 "on start": also shown on the login page */
  showOnStart: z.boolean(),
  /** changes whenever the notice is saved: the web shows a new version again */
  version: z.string(),
});
export type Notice = z.infer<typeof noticeSchema>;

export const updateNoticeBody = z.object({
  title: z.string().trim().min(1).max(100),
  content: z.string().trim().min(1).max(4000),
  startsAt: dateInput.nullable().optional(),
  endsAt: dateInput,
  showOnStart: z.boolean().optional().default(false),
});

export const demoAccountSchema = z.object({ username: z.string(), enabled: z.boolean() });
export const updateDemoAccountBody = z.object({ username: z.string().trim().min(1).max(100), enabled: z.boolean() });

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  userId: z.string(),
  username: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

export const addApiKeyBody = z.object({
  name: z.string().trim().min(1).max(60),
  /** the account the key logs in as; the caller by default */
  userId: idSchema.optional(),
});
