// Users and roles (graphql/users.graphql): thin adapters over the users area. The users list is paged here,
// by user id, over the whole filtered list the area answers (a pool holds hundreds of people, not millions).
import type { UserRoleInput } from '../../../lib/graphql-types';
import {
  createRoleView,
  deactivateUser,
  deleteRoleById,
  deleteUser,
  editUser,
  getRoleView,
  getUser,
  inviteUser,
  listRoleViews,
  listUsers,
  reactivateUser,
  signOutEverywhere,
  updateProfile,
  updateRoleView,
} from '../../../lib/users';
import { connection, decodeCursor, pageSizeOf, type PageRule } from '../arguments';
import { defineResolvers } from '../types';

export const USERS_PAGE: PageRule = { default: 999, max: 999 };

/** A role as the contract names it (`{ kind: Id, value }`), as the id the users area takes. */
const roleIdOf = (role: UserRoleInput | null | undefined) => (role ? role.value : null);

export const usersResolvers = defineResolvers({
  'Query.users': async (event) => {
    const input = event.arguments.input ?? {};
    const pageSize = pageSizeOf(input.pageSize, USERS_PAGE);
    const found = await listUsers({ search: input.search, roleId: input.roleId, status: input.status });
    const after = decodeCursor(input.cursor, (id) => found.some((user) => user.id === id));
    const start = after === undefined ? 0 : found.findIndex((user) => user.id === after) + 1;
    const page = found.slice(start, start + pageSize);
    const more = start + page.length < found.length;
    return connection(page, (user) => user.id, { next: more ? page[page.length - 1].id : null, after });
  },
  'Query.userById': (event) => getUser(event.arguments.id),
  'Query.roles': () => listRoleViews(),
  'Query.roleById': (event) => getRoleView(event.arguments.id),
  'Mutation.inviteUser': (event, caller) => {
    const { email, givenName, familyName, role } = event.arguments.input;
    return inviteUser({ email, givenName, familyName, roleId: roleIdOf(role) }, caller);
  },
  'Mutation.updateUser': (event, caller) => {
    const { id, email, givenName, familyName, role } = event.arguments.input;
    return editUser({ id, email, givenName, familyName, roleId: roleIdOf(role) }, caller);
  },
  'Mutation.updateProfile': (event, caller) => updateProfile(caller, event.arguments.input),
  'Mutation.signOutEverywhere': (_event, caller) => signOutEverywhere(caller),
  'Mutation.deactivateUser': (event, caller) => deactivateUser(event.arguments.id, caller),
  'Mutation.reactivateUser': (event, caller) => reactivateUser(event.arguments.id, caller),
  'Mutation.deleteUser': (event, caller) => deleteUser(event.arguments.id, caller),
  'Mutation.createRole': (event, caller) => createRoleView(event.arguments.input, caller),
  'Mutation.updateRole': (event, caller) => {
    const { id, ...input } = event.arguments.input;
    return updateRoleView(id, input, caller);
  },
  'Mutation.deleteRole': (event, caller) => deleteRoleById(event.arguments.id, caller),
});
