export { Can } from './Can';
export { useHasPermissions, usePermissions, type UserPermissions } from './usePermissions';
