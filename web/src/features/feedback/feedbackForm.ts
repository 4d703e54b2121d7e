import * as yup from 'yup';
import { featureNameError, feedbackTextError, usefulnessError } from '../../../../core/validation/feedback';

export interface FeedbackFormValues {
  readonly featureName: string;
  readonly text: string;
  /** 0 while not rated. */
  readonly usefulness: number;
}

function coreRule<T extends yup.Schema>(schema: T, rule: (value: unknown) => string | undefined): T {
  return schema.test('core-rule', (value, context) => {
    const message = rule(value);
    return message ? context.createError({ message }) : true;
  }) as T;
}

/** The feedback form (§5): the text is required, usefulness optional and 1 to 5 (0 means not rated). */
export const feedbackSchema = yup.object({
  featureName: coreRule(yup.string(), featureNameError),
  text: coreRule(yup.string(), feedbackTextError),
  usefulness: coreRule(yup.number(), (value) => (value === 0 ? undefined : usefulnessError(value))),
});
