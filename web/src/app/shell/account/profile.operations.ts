import { gql, type TypedDocumentNode } from '@apollo/client';
import type { UpdateProfileMutation, UpdateProfileMutationVariables } from '../../../lib/graphql/types';

/** The signed-in user's own first and last name; the answer refreshes the cached user (by id). */
export const UPDATE_PROFILE_MUTATION: TypedDocumentNode<UpdateProfileMutation, UpdateProfileMutationVariables> = gql`
  mutation UpdateProfile($input: UpdateProfileInput!) {
    updateProfile(input: $input) {
      id
      givenName
      familyName
      name
    }
  }
`;
