import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  GeneralSettingsQuery,
  GeneralSettingsQueryVariables,
  UpdateGeneralSettingsMutation,
  UpdateGeneralSettingsMutationVariables,
} from '../../lib/graphql/types';

const GENERAL_SETTINGS_FIELDS = gql`
  fragment GeneralSettingsFields on GeneralSettings {
    organizationName
    mfaRequired
    mfaMode
    passwordMinLength
    sessionHours
    updatedAt
    updatedBy
  }
`;

export const GENERAL_SETTINGS_QUERY: TypedDocumentNode<GeneralSettingsQuery, GeneralSettingsQueryVariables> = gql`
  query GeneralSettings {
    generalSettings {
      ...GeneralSettingsFields
    }
  }
  ${GENERAL_SETTINGS_FIELDS}
`;

export const UPDATE_GENERAL_SETTINGS: TypedDocumentNode<UpdateGeneralSettingsMutation, UpdateGeneralSettingsMutationVariables> =
  gql`
    mutation UpdateGeneralSettings($input: UpdateGeneralSettingsInput!) {
      updateGeneralSettings(input: $input) {
        ...GeneralSettingsFields
      }
    }
    ${GENERAL_SETTINGS_FIELDS}
  `;
