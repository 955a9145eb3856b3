// /api/user/* reads: one account, children, subtrees, agents, searches, family. Every read is limited to the
// caller's subtree (agent/scope.ts).
import { isAgent, ROLES } from '@carhere/domain';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { limitRequests } from '../../http/requestLimit.ts';
import type { App } from '../../http/types.ts';
import { needs } from '../agent/permissions.ts';
import { idBody, text } from '../agent/schema.ts';
import { assignableRoles, callerIsAdmin, loadReachableUser, pathIds, reaches, userColumns } from '../agent/scope.ts';
import { certLinkRoutes } from './certLink.ts';
import { userImportRoutes } from './importRoutes.ts';
import { loginByCertRoutes } from './loginByCert.ts';
import { userManageRoutes } from './manageRoutes.ts';
import { userPasswordRoutes } from './passwordRoutes.ts';
import { presentUser, userInfoSchema, userRowSchema } from './presenter.ts';
import { childUsers, presentRows, searchSubtree, subtreeUsers, usernameTaken } from './queries.ts';

export const FIND_USERNAME_PER_MINUTE = 30;

const AGENT_ROLES = [ROLES.admin, ROLES.agent, ROLES.superAgent];

export async function userRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/user/findById',
    {
      schema: {
        tags: ['user'],
        summary: 'One user inside the caller’s hierarchy',
        body: idBody,
        response: { 200: envelopeOf(userInfoSchema) },
      },
    },
    async (req) => ok(presentUser(await loadReachableUser(ctx, req.user!, req.body.id))),
  );

  // Spec §6: an account without functions (superAgent) is told whom to ask: its own superior's name and
  // contact, and nothing else about that account. Any signed-in caller, about itself only.
  app.get(
    '/user/superior',
    {
      schema: {
        tags: ['user'],
        summary: 'The caller’s superior account: name and contact, to ask for functions',
        response: {
          200: envelopeOf(z.object({ name: z.string(), telephone: z.string(), email: z.string() }).nullable()),
        },
      },
    },
    async (req) => {
      const me = await ctx.db.selectFrom('users').select('parent_id').where('id', '=', req.user!.id).executeTakeFirst();
      if (!me?.parent_id) return ok(null);
      const parent = await ctx.db
        .selectFrom('users')
        .select(['username', 'nickname', 'telephone', 'email'])
        .where('id', '=', me.parent_id)
        .executeTakeFirst();
      if (!parent) return ok(null);
      return ok({
        name: parent.nickname || parent.username,
        telephone: parent.telephone ?? '',
        email: parent.email ?? '',
      });
    },
  );

  app.post(
    '/user/findAllUser',
    {
      config: { permission: needs('accountsView') },
      schema: {
        tags: ['user'],
        summary: 'Direct sub-accounts of an account, with device counts',
        body: idBody,
        response: { 200: envelopeOf(z.array(userRowSchema)) },
      },
    },
    async (req) => {
      const parent = await loadReachableUser(ctx, req.user!, req.body.id);
      return ok(await presentRows(ctx, await childUsers(ctx, parent.id), parent.path));
    },
  );

  app.post(
    '/user/findAllUserV2',
    {
      config: { permission: needs('accountsView') },
      schema: {
        tags: ['user'],
        summary: 'The whole subtree of an account (itself first, parents before children), with device counts',
        body: idBody,
        response: { 200: envelopeOf(z.array(userRowSchema)) },
      },
    },
    async (req) => {
      const root = await loadReachableUser(ctx, req.user!, req.body.id);
      return ok(await presentRows(ctx, await subtreeUsers(ctx, root.path), root.path));
    },
  );

  app.post(
    '/user/findAllAgentByIdV2',
    {
      config: { permission: needs('accountsView') },
      schema: {
        tags: ['user'],
        summary: 'Agents (accounts that may have sub-accounts) in the subtree of an account, for the agent tree',
        body: idBody,
        response: { 200: envelopeOf(z.array(userRowSchema)) },
      },
    },
    async (req) => {
      const root = await loadReachableUser(ctx, req.user!, req.body.id);
      const rows = await subtreeUsers(ctx, root.path, AGENT_ROLES);
      // The root is always listed, even when it is not an agent, so the tree has a top.
      if (!rows.some((r) => r.id === root.id)) rows.unshift(root);
      return ok(await presentRows(ctx, rows, root.path));
    },
  );

  app.post(
    '/user/findUsername',
    {
      // Only for callers who may create accounts (the form checks a new name), and rate-limited per caller, so
      // it cannot be used to list which names exist.
      config: { permission: needs('agentAdd') },
      schema: {
        tags: ['user'],
        summary: `Whether a username is already in use (names are unique without regard to case); for callers who may create accounts, at most ${FIND_USERNAME_PER_MINUTE} calls a minute`,
        body: z.object({ username: z.string().trim().min(1).max(50) }),
        response: { 200: envelopeOf(z.object({ exists: z.boolean() })) },
      },
    },
    async (req) => {
      await limitRequests(ctx, `findUsername:${req.user!.id}`, FIND_USERNAME_PER_MINUTE, 60_000);
      return ok({ exists: await usernameTaken(ctx, req.body.username) });
    },
  );

  app.post(
    '/user/findLike',
    {
      config: { permission: needs('accountsView') },
      schema: {
        tags: ['user'],
        summary: 'Accounts in a subtree whose username, nickname or telephone contains the text (at most 200)',
        body: z.object({ selectName: text(50).min(1), id: idBody.shape.id.optional() }),
        response: { 200: envelopeOf(z.array(userRowSchema)) },
      },
    },
    async (req) => {
      const root = await loadReachableUser(ctx, req.user!, req.body.id ?? req.user!.id);
      return ok(await presentRows(ctx, await searchSubtree(ctx, root.path, req.body.selectName, 200), root.path));
    },
  );

  app.post(
    '/user/getFamily',
    {
      config: { permission: needs('accountsView') },
      schema: {
        tags: ['user'],
        summary: 'An account with its superiors (as far up as the caller reaches) and its direct sub-accounts',
        body: idBody,
        response: {
          200: envelopeOf(
            z.object({ user: userRowSchema, ancestors: z.array(userRowSchema), children: z.array(userRowSchema) }),
          ),
        },
      },
    },
    async (req) => {
      const caller = req.user!;
      const user = await loadReachableUser(ctx, caller, req.body.id);
      const aboveIds = pathIds(user.path).slice(0, -1);
      const [above, children] = await Promise.all([
        aboveIds.length === 0
          ? Promise.resolve([])
          : ctx.db.selectFrom('users').select(userColumns).where('id', 'in', aboveIds).orderBy('path').execute(),
        childUsers(ctx, user.id),
      ]);
      const visibleAbove = above.filter((u) => reaches(caller, u.path));
      const countRoot = callerIsAdmin(caller) ? (visibleAbove[0]?.path ?? user.path) : caller.path;
      const rows = await presentRows(ctx, [user, ...visibleAbove, ...children], countRoot);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ok({
        user: byId.get(user.id)!,
        ancestors: visibleAbove.map((u) => byId.get(u.id)!),
        children: children.map((u) => byId.get(u.id)!),
      });
    },
  );

  app.get(
    '/user/roles',
    {
      schema: {
        tags: ['user'],
        summary: 'Roles the caller may give to accounts it creates or edits',
        response: { 200: envelopeOf(z.object({ roles: z.array(z.number().int()), isAgent: z.boolean() })) },
      },
    },
    async (req) => ok({ roles: assignableRoles(req.user!.role), isAgent: isAgent(req.user!.role) }),
  );

  await userManageRoutes(app, ctx);
  await userPasswordRoutes(app, ctx);
  await userImportRoutes(app, ctx);
  await loginByCertRoutes(app, ctx);
  await certLinkRoutes(app, ctx);
}
