import { useMutation } from '@apollo/client/react';
import { notifications } from '@mantine/notifications';
import type { FeedbackFormValues } from '../../features/feedback/feedbackForm';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { SILENT } from '../../lib/apollo/createApolloClient';
import { SEND_USER_FEEDBACK_MUTATION } from './feedback.operations';

/** Sends feedback with the page it came from and the screen's width; says whether it was received. */
export function useSendFeedback(): (values: FeedbackFormValues) => Promise<boolean> {
  const [sendUserFeedback] = useMutation(SEND_USER_FEEDBACK_MUTATION, { context: SILENT });
  return async (values) => {
    try {
      await sendUserFeedback({
        variables: {
          input: {
            feature: { name: values.featureName },
            feedback: { text: values.text },
            usefulness: values.usefulness === 0 ? null : values.usefulness,
            locationUrl: window.location.href,
            screenWidth: window.screen.width,
          },
        },
      });
      notifications.show({ color: 'green', message: 'Feedback received. Thank you!' });
      return true;
    } catch (error) {
      notifications.show({ color: 'red', title: 'Failed to send feedback', message: describeApiError(error) });
      return false;
    }
  };
}
