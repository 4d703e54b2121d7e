import * as yup from 'yup';
import { featureNameError, feedbackTextError, usefulnessError } from '../../../../core/validation/feedback';
import { coreRule } from '../../lib/forms/coreRule';

export interface FeedbackFormValues {
  readonly featureName: string;
  readonly text: string;
  /** 0 while not rated. */
  readonly usefulness: number;
}

/** The feedback form: the text is required, usefulness optional and 1 to 5 (0 means not rated). */
export const feedbackSchema = yup.object({
  featureName: coreRule(yup.string(), featureNameError),
  text: coreRule(yup.string(), feedbackTextError),
  usefulness: coreRule(yup.number(), (value) => (value === 0 ? undefined : usefulnessError(value))),
});
