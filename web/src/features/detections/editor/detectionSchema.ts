// The detection form's yup schema, from core's rules (the ones the server applies on save).
import * as yup from 'yup';
import { detectionIdProblem, linkProblem } from '../../../../../core/detections/save-checks';
import { coreRule } from '../../../lib/forms/coreRule';
import { parseResource, type DetectionFormValues } from './detectionDocument';

export const REQUIRED = 'This field is required';
const MUST_HAVE_VALUE = 'Must have a value';

const link = () => coreRule(yup.string(), (value) => (typeof value === 'string' && value ? linkProblem(value) : undefined));

export const detectionSchema: yup.ObjectSchema<Pick<DetectionFormValues, 'id'>> = yup.object({
  id: coreRule(yup.string().trim().required(REQUIRED), (value) =>
    typeof value === 'string' && value.trim() ? detectionIdProblem(value.trim()) : undefined,
  ),
  displayName: yup.string().max(200, 'Must be at most 200 characters'),
  dedupPeriodMinutes: yup.number().typeError(MUST_HAVE_VALUE).integer('The field should have digits only').min(0),
  threshold: yup.number().typeError(MUST_HAVE_VALUE).integer('The field should have digits only').min(1, 'Must be at least 1'),
  runbook: link(),
  reference: link(),
  logTypes: yup.array().when('kind', {
    is: (kind: string) => kind === 'rule' || kind === 'simple',
    then: (s) => s.min(1, 'Select at least 1 log type'),
  }),
  scheduledQueries: yup.array().when('kind', {
    is: 'scheduled_rule',
    then: (s) => s.min(1, 'Name at least 1 scheduled query'),
  }),
  body: yup.string().when('kind', {
    is: (kind: string) => kind !== 'simple',
    then: (s) => s.required(REQUIRED),
  }),
  tests: yup.array().test('tests', (tests, context) => {
    const names = new Set<string>();
    for (const test of (tests ?? []) as DetectionFormValues['tests']) {
      if (!test.name.trim()) return context.createError({ message: 'A test name cannot be empty' });
      if (names.has(test.name)) return context.createError({ message: 'No duplicate test names' });
      names.add(test.name);
      try {
        parseResource(test.resource);
      } catch (err) {
        return context.createError({ message: `${test.name}: ${(err as Error).message}` });
      }
    }
    return true;
  }),
}) as unknown as yup.ObjectSchema<Pick<DetectionFormValues, 'id'>>;
