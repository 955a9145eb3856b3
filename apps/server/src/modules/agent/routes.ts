// /api/agent/export: the agent list of a subtree as a spreadsheet (spec §2 indexAgentListExport), within the
// configured export limit.

import { neutraliseRow, ROLES, roleName } from '@carhere/domain';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import type { App } from '../../http/types.ts';
import { batchLimits } from '../device/settings.ts';
import { presentRows, subtreeUsers } from '../user/queries.ts';
import { needs } from './permissions.ts';
import { idSchema } from './schema.ts';
import { loadReachableUser } from './scope.ts';

const AGENT_ROLES = [ROLES.admin, ROLES.agent, ROLES.superAgent];

export async function agentRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/agent/export',
    {
      config: { permission: needs('agentExport') },
      schema: {
        tags: ['user'],
        summary: 'The accounts of a subtree (agents only, or all) as an .xlsx file, within the agent export limit',
        body: z.object({ id: idSchema, agentsOnly: z.boolean().default(true) }),
      },
    },
    async (req, reply) => {
      const root = await loadReachableUser(ctx, req.user!, req.body.id);
      const users = await subtreeUsers(ctx, root.path, req.body.agentsOnly ? AGENT_ROLES : undefined);
      const limits = await batchLimits(ctx);
      if (users.length > limits.agentsPerExport) {
        throw new ApiError(400, 'device.exportLimit', 400, { max: limits.agentsPerExport });
      }
      const rows = await presentRows(ctx, users, root.path);
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('agents');
      sheet.columns = [
        { header: 'ID', key: 'id', width: 10 },
        { header: 'Username', key: 'username', width: 24 },
        { header: 'Nickname', key: 'nickname', width: 20 },
        { header: 'Role', key: 'role', width: 14 },
        { header: 'Parent ID', key: 'user_id', width: 10 },
        { header: 'Telephone', key: 'telephone', width: 16 },
        { header: 'Devices', key: 'deviceNum', width: 10 },
        { header: 'Devices (with sub-accounts)', key: 'totalDeviceNum', width: 14 },
        { header: 'Sold', key: 'saleNum', width: 10 },
        { header: 'Imports left', key: 'importQuota', width: 12 },
        { header: 'Created', key: 'createdAt', width: 22 },
      ];
      for (const r of rows) sheet.addRow(neutraliseRow({ ...r, role: roleName(r.role) ?? String(r.role) }));
      const buffer = await book.xlsx.writeBuffer();
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="agents-${root.id}.xlsx"`)
        .send(Buffer.from(buffer as ArrayBuffer));
    },
  );
}
