import { gql, type TypedDocumentNode } from '@apollo/client';
import type { SendUserFeedbackMutation, SendUserFeedbackMutationVariables } from '../../lib/graphql/types';

export const SEND_USER_FEEDBACK_MUTATION: TypedDocumentNode<SendUserFeedbackMutation, SendUserFeedbackMutationVariables> = gql`
  mutation SendUserFeedback($input: SendUserFeedbackInput!) {
    sendUserFeedback(input: $input) {
      id
    }
  }
`;
