// Changes that race through the API of the local runtime (dynalite, which has no transactions, behind it):
// two Admins removing each other at once always leave an enabled Admin, and a role deleted while it is
// given to someone either stays or leaves nobody holding it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../local/harness';
import { DELETE_ROLE, INVITE, UPDATE_USER, api, createRole, inviteAndSignIn, ok, signInAdmin, type Answer } from './support';

const ROUNDS = 12;

let runtime: TestRuntime;
let first: Admin;
let viewersRoleId: string;

interface Admin {
  readonly id: string;
  readonly token: string;
}

const DEACTIVATE = 'mutation D($id: ID!) { deactivateUser(id: $id) { id } }';
const REACTIVATE = 'mutation R($id: ID!) { reactivateUser(id: $id) { id } }';
const DELETE_USER = 'mutation D($id: ID!) { deleteUser(id: $id) }';
const ROLE_OF = 'query U($id: ID!) { userById(id: $id) { role { id } } }';
const setRole = (id: string, roleId: string) => ({ input: { id, role: { kind: 'Id', value: roleId } } });

/** The enabled users holding the Admin role, as an Admin reads them. */
async function enabledAdmins(token: string): Promise<string[]> {
  const query = '{ users(input: { roleId: "Admin" }) { edges { node { id enabled } } } }';
  const nodes = (await ok(runtime, token, query)).users.edges.map((e: { node: { id: string; enabled: boolean } }) => e.node);
  return nodes.filter((n: { enabled: boolean }) => n.enabled).map((n: { id: string }) => n.id);
}

/** Which of two answers succeeded; exactly one must. */
function winnerOf(answers: [Answer, Answer]): 0 | 1 {
  const succeeded = answers.map((a) => a.errors.length === 0);
  expect(succeeded.filter(Boolean), JSON.stringify(answers)).toHaveLength(1);
  return succeeded[0] ? 0 : 1;
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  const token = await signInAdmin(runtime);
  first = { id: (await ok(runtime, token, '{ me { id } }')).me.id, token };
  viewersRoleId = (await createRole(runtime, token, 'Viewers', ['UserRead'])).id;
}, 120_000);
afterAll(() => runtime?.stop());

describe('two Admins removing each other at once', () => {
  it('deactivating: one of them stays an enabled Admin', async () => {
    const second = await inviteAndSignIn(runtime, first.token, 'deactivating@example.com', 'Admin');
    for (let round = 0; round < ROUNDS; round++) {
      const pair: [Admin, Admin] = [first, second];
      const answers = await Promise.all([
        api(runtime, pair[0].token, DEACTIVATE, { id: pair[1].id }),
        api(runtime, pair[1].token, DEACTIVATE, { id: pair[0].id }),
      ]);
      const winner = pair[winnerOf(answers)];
      const loser = pair.find((admin) => admin !== winner)!;
      expect(await enabledAdmins(winner.token)).toEqual([winner.id]);
      await ok(runtime, winner.token, REACTIVATE, { id: loser.id });
    }
    await ok(runtime, first.token, DELETE_USER, { id: second.id });
  }, 120_000);

  it('demoting: one of them stays an Admin', async () => {
    const second = await inviteAndSignIn(runtime, first.token, 'demoting@example.com', 'Admin');
    for (let round = 0; round < ROUNDS; round++) {
      const pair: [Admin, Admin] = [first, second];
      const answers = await Promise.all([
        api(runtime, pair[0].token, UPDATE_USER, setRole(pair[1].id, viewersRoleId)),
        api(runtime, pair[1].token, UPDATE_USER, setRole(pair[0].id, viewersRoleId)),
      ]);
      const winner = pair[winnerOf(answers)];
      const loser = pair.find((admin) => admin !== winner)!;
      expect(await enabledAdmins(winner.token)).toEqual([winner.id]);
      await ok(runtime, winner.token, UPDATE_USER, setRole(loser.id, 'Admin'));
    }
    await ok(runtime, first.token, DELETE_USER, { id: second.id });
  }, 120_000);

  it('deleting: one of them stays an Admin', async () => {
    let survivor = first;
    for (let round = 0; round < 4; round++) {
      const other = await inviteAndSignIn(runtime, survivor.token, `deleting-${round}@example.com`, 'Admin');
      const pair: [Admin, Admin] = [survivor, other];
      const answers = await Promise.all([
        api(runtime, pair[0].token, DELETE_USER, { id: pair[1].id }),
        api(runtime, pair[1].token, DELETE_USER, { id: pair[0].id }),
      ]);
      survivor = pair[winnerOf(answers)];
      expect(await enabledAdmins(survivor.token)).toEqual([survivor.id]);
    }
    first = survivor;
  }, 120_000);
});

describe('a role deleted while it is given', () => {
  it('to a new user: either the invitation or the deletion is refused', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const role = await createRole(runtime, first.token, `Invited ${round}`, ['AlertRead']);
      const email = `invited-${round}@example.com`;
      const invite = { input: { email, givenName: 'Ann', familyName: 'Other', role: { kind: 'Id', value: role.id } } };
      const answers = await Promise.all([
        api(runtime, first.token, INVITE, invite),
        api(runtime, first.token, DELETE_ROLE, { id: role.id }),
      ]);
      const emails = (await ok(runtime, first.token, '{ users { edges { node { email role { id } } } } }')).users.edges.map(
        (e: { node: { email: string; role: { id: string } | null } }) => e.node,
      );
      if (winnerOf(answers) === 0) {
        expect(answers[1].errors[0]).toMatchObject({ errorType: 'InUse' });
        expect(emails).toContainEqual({ email, role: { id: role.id } });
      } else {
        expect(answers[0].errors[0]).toMatchObject({ errorType: 'NotFound', message: 'Role not found' });
        expect(emails.map((u: { email: string }) => u.email)).not.toContain(email);
      }
    }
  }, 120_000);

  it('to an existing user: either the role change or the deletion is refused', async () => {
    const user = (
      await ok(runtime, first.token, INVITE, {
        input: { email: 'moving@example.com', givenName: 'Mo', familyName: 'Ving', role: { kind: 'Id', value: viewersRoleId } },
      })
    ).inviteUser.id;
    for (let round = 0; round < ROUNDS; round++) {
      const role = await createRole(runtime, first.token, `Moved ${round}`, ['AlertRead']);
      const answers = await Promise.all([
        api(runtime, first.token, UPDATE_USER, setRole(user, role.id)),
        api(runtime, first.token, DELETE_ROLE, { id: role.id }),
      ]);
      const held = (await ok(runtime, first.token, ROLE_OF, { id: user })).userById.role;
      if (winnerOf(answers) === 0) {
        expect(held).toEqual({ id: role.id });
        await ok(runtime, first.token, UPDATE_USER, setRole(user, viewersRoleId));
        expect((await ok(runtime, first.token, DELETE_ROLE, { id: role.id })).deleteRole).toBe(role.id);
      } else {
        expect(held).toEqual({ id: viewersRoleId });
      }
    }
  }, 120_000);
});
