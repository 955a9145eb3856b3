// /api/user/importUser: bulk account creation as a background job with progress (no request timeout);
// GET /api/user/importJob?id= polls it. Each row is checked on its own; refused rows are listed with the reason.
import { canAddSubUser, isRoleId, ROLES } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { ApiError } from '../../http/errors.ts';
import { callerLang, translate } from '../../http/i18n.ts';
import { int32 } from '../../http/input.ts';
import type { App } from '../../http/types.ts';
import { findJob, type JobView, startJob, trackJobsOnClose } from '../agent/jobs.ts';
import { needs } from '../agent/permissions.ts';
import { checkNewPassword, isUniqueViolation, normalizeUsername } from '../agent/rules.ts';
import { idSchema, text } from '../agent/schema.ts';
import { assignableRoles, type Caller, loadReachableUser } from '../agent/scope.ts';
import { generateAccountPassword, hashPassword } from '../auth/password.ts';
import { checkContactFields, insertAccount } from './service.ts';

export const USER_IMPORT_MAX_ROWS = 5000;

const importRow = z.object({
  username: z.string().max(50),
  password: z.string().max(64).optional(),
  nickname: text(50).optional(),
  telephone: text(30).optional(),
  address: text(200).optional(),
  mark: text(500).optional(),
  role: int32().optional(),
});
type ImportRow = z.infer<typeof importRow>;

export interface UserImportResult {
  success: number;
  failure: number;
  /** `password`: generated for a row without one; answered once to the importer, then removed from the job. */
  created: { line: number; id: string; username: string; password?: string }[];
  refused: { line: number; username: string; message: string }[];
}

export const jobSchema = z.object({
  id: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  total: z.number().int(),
  processed: z.number().int(),
  result: z.unknown(),
  error: z.string().nullable(),
});

async function importUsers(
  ctx: AppContext,
  caller: Caller,
  parentId: string,
  rows: ImportRow[],
  lang: string,
  progress: (n: number) => Promise<void>,
): Promise<UserImportResult> {
  const parent = await loadReachableUser(ctx, caller, parentId);
  const allowed = assignableRoles(caller.role);
  const result: UserImportResult = { success: 0, failure: 0, created: [], refused: [] };
  const seen = new Set<string>();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const line = i + 1;
    try {
      const username = normalizeUsername(row.username);
      checkContactFields(row);
      const role = row.role ?? ROLES.user;
      if (!isRoleId(role) || !allowed.includes(role)) throw new ApiError(400, 'account.roleNotAssignable');
      const parentCheck = canAddSubUser(parent.role);
      if (!parentCheck.ok) throw new ApiError(400, parentCheck.message);
      if (seen.has(username.toLowerCase())) throw new ApiError(400, 'account.usernameTaken');
      seen.add(username.toLowerCase());
      // Every imported account changes its password at first sign-in: the importer's file knows it.
      if (row.password) checkNewPassword(row.password);
      const generated = row.password ? undefined : generateAccountPassword();
      const hash = await hashPassword(row.password || generated!);
      const id = await ctx.db
        .transaction()
        .execute((trx) => insertAccount(trx, parent.id, { ...row, username, role }, hash, true));
      result.success++;
      result.created.push({ line, id, username, ...(generated ? { password: generated } : {}) });
    } catch (err) {
      let key: string;
      if (err instanceof ApiError) key = err.key;
      else if (isUniqueViolation(err)) key = 'account.usernameTaken';
      else throw err;
      result.failure++;
      result.refused.push({ line, username: row.username, message: translate(key, lang) });
    }
    await progress(line);
  }
  return result;
}

/**
 * The generated passwords of a finished import are answered once, to the importer: the first read of the
 * finished job removes them from the stored result.
 */
async function handOverPasswords(ctx: AppContext, caller: Caller, view: JobView): Promise<JobView> {
  const result = view.result as UserImportResult | null;
  if (view.status !== 'done' || !result?.created?.some((c) => c.password)) return view;
  const owner = await ctx.db.selectFrom('import_jobs').select('user_id').where('id', '=', view.id).executeTakeFirst();
  if (owner?.user_id !== caller.id) {
    return { ...view, result: { ...result, created: result.created.map(({ password: _, ...c }) => c) } };
  }
  const stripped = { ...result, created: result.created.map(({ password: _, ...c }) => c) };
  await ctx.db
    .updateTable('import_jobs')
    .set({ result: JSON.stringify(stripped) })
    .where('id', '=', view.id)
    .execute();
  return view;
}

export async function userImportRoutes(app: App, ctx: AppContext): Promise<void> {
  trackJobsOnClose(app, ctx);

  app.post(
    '/user/importUser',
    {
      config: { permission: needs('agentAdd') },
      schema: {
        tags: ['user'],
        summary: `Create up to ${USER_IMPORT_MAX_ROWS} accounts under an agent as a background job; poll GET /user/importJob. Rows without a password get a random one, answered once (result.created[].password) to the importer; every imported account changes its password at first sign-in`,
        body: z.object({
          parentId: idSchema.optional(),
          rows: z.array(importRow).min(1).max(USER_IMPORT_MAX_ROWS),
          /** Wait for the job to end and answer with its final state (API clients, small imports). */
          wait: z.boolean().optional(),
        }),
        response: { 200: envelopeOf(jobSchema) },
      },
    },
    async (req) => {
      const caller = req.user!;
      const lang = callerLang(req);
      const parentId = req.body.parentId ?? caller.id;
      // Checked before the job starts, so a bad parent is an immediate answer, not a failed job.
      await loadReachableUser(ctx, caller, parentId);
      const rows = req.body.rows;
      const job = await startJob(ctx, caller, 'users', rows.length, (progress) =>
        importUsers(ctx, caller, parentId, rows, lang, progress),
      );
      if (req.body.wait) await job.done;
      const view = await handOverPasswords(ctx, caller, await findJob(ctx, caller, job.id, 'users'));
      return ok({ ...view, error: view.error ? translate(view.error, lang) : null });
    },
  );

  app.get(
    '/user/importJob',
    {
      config: { permission: needs('agentAdd') },
      schema: {
        tags: ['user'],
        summary: 'Progress and result of an account import job',
        querystring: z.object({ id: z.string().uuid() }),
        response: { 200: envelopeOf(jobSchema) },
      },
    },
    async (req) => {
      const view = await handOverPasswords(ctx, req.user!, await findJob(ctx, req.user!, req.query.id, 'users'));
      return ok({ ...view, error: view.error ? translate(view.error, callerLang(req)) : null });
    },
  );
}
