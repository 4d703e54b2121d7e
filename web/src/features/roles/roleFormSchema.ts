import * as yup from 'yup';
import type { Permission } from '../../../../core/permissions';
import { roleNameError } from '../../../../core/validation/roles';
import { coreRule } from '../../lib/forms/coreRule';

export interface RoleFormValues {
  readonly name: string;
  readonly permissions: Permission[];
}

/** The role form's rules, from core's (the server runs the same ones and checks the name is unused). */
export const roleFormSchema = yup.object({
  name: coreRule(yup.string(), roleNameError),
  permissions: yup.array(yup.string().required()).required(),
});
