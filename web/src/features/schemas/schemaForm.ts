// The schema form's yup schema, built from core's rules (the same the API applies).
import * as yup from 'yup';
import { customSchemaNameProblem, referenceUrlProblem } from '../../../../core/schemas/naming';

export function schemaFormSchema(isNew: boolean, existingNames: readonly string[]) {
  return yup.object({
    name: isNew
      ? yup.string().test('schema-name', (value, ctx) => {
          const problem = customSchemaNameProblem(value ?? '', existingNames);
          return problem ? ctx.createError({ message: problem }) : true;
        })
      : yup.string(),
    referenceURL: yup.string().test('reference-url', (value, ctx) => {
      const problem = referenceUrlProblem(value ?? '');
      return problem ? ctx.createError({ message: problem }) : true;
    }),
    description: yup.string(),
    spec: yup.string(),
    isFieldDiscoveryEnabled: yup.boolean(),
  });
}
