// The schema form's yup schema, built from core's rules (the same the API applies).
import * as yup from 'yup';
import { customSchemaNameProblem, referenceUrlProblem } from '../../../../core/schemas/naming';
import { coreRule } from '../../lib/forms/coreRule';

export function schemaFormSchema(isNew: boolean, existingNames: readonly string[]) {
  return yup.object({
    name: isNew ? coreRule(yup.string(), (value) => customSchemaNameProblem(value, existingNames)) : yup.string(),
    referenceURL: coreRule(yup.string(), referenceUrlProblem),
    description: yup.string(),
    spec: yup.string(),
    isFieldDiscoveryEnabled: yup.boolean(),
  });
}
