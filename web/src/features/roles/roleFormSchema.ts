import * as yup from 'yup';
import type { Permission } from '../../../../core/permissions';
import { roleNameError } from '../../../../core/validation/roles';

export interface RoleFormValues {
  readonly name: string;
  readonly permissions: Permission[];
}

/** The role form's rules, from core's (the server runs the same ones and checks the name is unused). */
export const roleFormSchema = yup.object({
  name: yup.string().test('role-name', function test(value) {
    const error = roleNameError(value ?? '');
    return error ? this.createError({ message: error }) : true;
  }),
  permissions: yup.array(yup.string().required()).required(),
});
