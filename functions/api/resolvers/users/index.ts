// Users and roles (graphql/users.graphql).
import type { ResolverMap } from '../types';
import { createRole, deleteRole, roleById, roles, updateRole } from './roles';
import {
  deactivateUserResolver,
  deleteUserResolver,
  inviteUserResolver,
  reactivateUserResolver,
  updateProfileResolver,
  updateUserResolver,
  userById,
  users,
} from './users';

export const usersResolvers: ResolverMap = {
  'Query.users': users,
  'Query.userById': userById,
  'Query.roles': roles,
  'Query.roleById': roleById,
  'Mutation.inviteUser': inviteUserResolver,
  'Mutation.updateUser': updateUserResolver,
  'Mutation.updateProfile': updateProfileResolver,
  'Mutation.deactivateUser': deactivateUserResolver,
  'Mutation.reactivateUser': reactivateUserResolver,
  'Mutation.deleteUser': deleteUserResolver,
  'Mutation.createRole': createRole,
  'Mutation.updateRole': updateRole,
  'Mutation.deleteRole': deleteRole,
};
