// Test tree for the customer-map areas: admin, agent A (granted riskPoint, checkCar and bus) with end user A1,
// agent B (a sibling subtree, no grants) with end user B1; one device under A1 and one under B1.
import { type ApiClient, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/harness.ts';
import { buildDevice, buildUser, clientFor, type FixtureUser } from '../fence/testFixtures.ts';

export interface CustomerMapTree {
  admin: ApiClient;
  agentA: ApiClient;
  agentB: ApiClient;
  userA1: ApiClient;
  ids: { agentA: FixtureUser; agentB: FixtureUser; userA1: FixtureUser; userB1: FixtureUser };
  deviceA: { id: string; terminalId: string };
  deviceB: { id: string; terminalId: string };
}

let n = 0;

export async function customerMapTree(server: TestServer, grantA = true): Promise<CustomerMapTree> {
  const db = server.ctx.db;
  const tag = `${process.pid % 1000}${++n}`;
  const agentA = await buildUser(db, `cm-agentA-${tag}`, 2);
  const agentB = await buildUser(db, `cm-agentB-${tag}`, 2);
  const userA1 = await buildUser(db, `cm-userA1-${tag}`, 3, agentA);
  const userB1 = await buildUser(db, `cm-userB1-${tag}`, 3, agentB);
  const deviceA = await buildDevice(db, `86100000${tag.padStart(7, '0')}`, userA1, { nickname: 'Bus A' });
  const deviceB = await buildDevice(db, `86200000${tag.padStart(7, '0')}`, userB1, { nickname: 'Car B' });
  const { ApiClient: Client } = await import('../../testing/harness.ts');
  const admin = new Client(server);
  const login = await admin.login('admin', TEST_ADMIN_PASSWORD);
  if (login.meta.code !== 200) throw new Error('admin login failed');
  if (grantA) {
    const granted = await admin.post('/user/updateGrants', {
      id: agentA.id,
      permissions: ['main:risk_point', 'main:check_car', 'main:bus'],
    });
    if (granted.status !== 200) throw new Error(`grant failed: ${JSON.stringify(granted.meta)}`);
  }
  return {
    admin,
    agentA: await clientFor(server, agentA),
    agentB: await clientFor(server, agentB),
    userA1: await clientFor(server, userA1),
    ids: { agentA, agentB, userA1, userB1 },
    deviceA,
    deviceB,
  };
}
