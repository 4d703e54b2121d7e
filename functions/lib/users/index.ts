// The users area's door: the people of a workspace (the user pool joined with their user records), their
// roles, what a user may do and who holds a permission. Services take the acting Caller where a rule depends
// on who acts, check their input with core's rules (core/validation/users.ts, roles.ts) and answer with the
// API's error types; the user pool, the records, the roles and the Admins guard stay behind this door.
export { userAccess, type Caller, type UserAccess } from './access';
export { bootstrapFirstAdmin } from './bootstrap';
export { notifyUsersWith, type NotifyUsersInput } from './notify';
export {
  createRoleView,
  deleteRoleById,
  getRoleView,
  listRoleViews,
  updateRoleView,
  type RoleInput,
  type RoleView,
} from './role-admin';
export {
  deactivateUser,
  deleteUser,
  editUser,
  getSignedInUser,
  getUser,
  inviteUser,
  listUsers,
  reactivateUser,
  signOutEverywhere,
  updateProfile,
  type EditInput,
  type InviteInput,
  type UserFilter,
  type UserView,
} from './users';
