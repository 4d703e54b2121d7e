import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  CreateRoleMutation,
  CreateRoleMutationVariables,
  DeleteRoleMutation,
  DeleteRoleMutationVariables,
  ListRolesQuery,
  ListRolesQueryVariables,
  RoleByIdQuery,
  RoleByIdQueryVariables,
  UpdateRoleMutation,
  UpdateRoleMutationVariables,
} from '../../lib/graphql/types';

const ROLE_FIELDS = gql`
  fragment RoleFields on Role {
    id
    name
    permissions
    userCount
    updatedAt
  }
`;

export const LIST_ROLES: TypedDocumentNode<ListRolesQuery, ListRolesQueryVariables> = gql`
  query ListRoles {
    roles {
      ...RoleFields
    }
  }
  ${ROLE_FIELDS}
`;

export const ROLE_BY_ID: TypedDocumentNode<RoleByIdQuery, RoleByIdQueryVariables> = gql`
  query RoleById($id: ID!) {
    roleById(id: $id) {
      ...RoleFields
    }
  }
  ${ROLE_FIELDS}
`;

export const CREATE_ROLE: TypedDocumentNode<CreateRoleMutation, CreateRoleMutationVariables> = gql`
  mutation CreateRole($input: CreateRoleInput!) {
    createRole(input: $input) {
      ...RoleFields
    }
  }
  ${ROLE_FIELDS}
`;

export const UPDATE_ROLE: TypedDocumentNode<UpdateRoleMutation, UpdateRoleMutationVariables> = gql`
  mutation UpdateRole($input: UpdateRoleInput!) {
    updateRole(input: $input) {
      ...RoleFields
    }
  }
  ${ROLE_FIELDS}
`;

export const DELETE_ROLE: TypedDocumentNode<DeleteRoleMutation, DeleteRoleMutationVariables> = gql`
  mutation DeleteRole($id: ID!) {
    deleteRole(id: $id)
  }
`;
