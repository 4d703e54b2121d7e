import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  DeactivateUserMutation,
  DeactivateUserMutationVariables,
  DeleteUserMutation,
  DeleteUserMutationVariables,
  EditUserMutation,
  EditUserMutationVariables,
  InviteUserMutation,
  InviteUserMutationVariables,
  ListUsersRolesQuery,
  ListUsersRolesQueryVariables,
  ReactivateUserMutation,
  ReactivateUserMutationVariables,
} from '../../lib/graphql/types';

const USER_FIELDS = gql`
  fragment UserListFields on User {
    id
    email
    givenName
    familyName
    name
    enabled
    status
    createdAt
    role {
      id
      name
    }
  }
`;

/** Every user of the workspace (a pool holds hundreds: one page of up to 999) and the roles to pick from. */
export const LIST_USERS_ROLES: TypedDocumentNode<ListUsersRolesQuery, ListUsersRolesQueryVariables> = gql`
  query ListUsersRoles {
    users(input: { pageSize: 999 }) {
      edges {
        node {
          ...UserListFields
        }
      }
      pageInfo {
        hasNextPage
      }
    }
    roles {
      id
      name
    }
  }
  ${USER_FIELDS}
`;

export const INVITE_USER: TypedDocumentNode<InviteUserMutation, InviteUserMutationVariables> = gql`
  mutation InviteUser($input: InviteUserInput!) {
    inviteUser(input: $input) {
      ...UserListFields
    }
  }
  ${USER_FIELDS}
`;

export const EDIT_USER: TypedDocumentNode<EditUserMutation, EditUserMutationVariables> = gql`
  mutation EditUser($input: UpdateUserInput!) {
    updateUser(input: $input) {
      ...UserListFields
    }
  }
  ${USER_FIELDS}
`;

export const DEACTIVATE_USER: TypedDocumentNode<DeactivateUserMutation, DeactivateUserMutationVariables> = gql`
  mutation DeactivateUser($id: ID!) {
    deactivateUser(id: $id) {
      ...UserListFields
    }
  }
  ${USER_FIELDS}
`;

export const REACTIVATE_USER: TypedDocumentNode<ReactivateUserMutation, ReactivateUserMutationVariables> = gql`
  mutation ReactivateUser($id: ID!) {
    reactivateUser(id: $id) {
      ...UserListFields
    }
  }
  ${USER_FIELDS}
`;

export const DELETE_USER: TypedDocumentNode<DeleteUserMutation, DeleteUserMutationVariables> = gql`
  mutation DeleteUser($id: ID!) {
    deleteUser(id: $id)
  }
`;
