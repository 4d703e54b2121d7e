import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  NotificationCountsQuery,
  NotificationCountsQueryVariables,
  NotificationListQuery,
  NotificationListQueryVariables,
  NotificationPollQuery,
  NotificationPollQueryVariables,
  NotificationPreferencesQuery,
  NotificationPreferencesQueryVariables,
  PutNotificationPreferencesMutation,
  PutNotificationPreferencesMutationVariables,
  UpdateNotificationMutation,
  UpdateNotificationMutationVariables,
  UpdateUserNotificationsMutation,
  UpdateUserNotificationsMutationVariables,
} from '../../../lib/graphql/types';

const NOTIFICATION_FIELDS = gql`
  fragment NotificationFields on Notification {
    id
    topic
    level
    title
    message
    createdAt
    readAt
    archivedAt
    metadata {
      alertId
    }
  }
`;

/** One page of the inbox (optionally unread only) or of the archive. */
export const NOTIFICATION_LIST_QUERY: TypedDocumentNode<NotificationListQuery, NotificationListQueryVariables> = gql`
  query NotificationList($input: NotificationsInput!) {
    notifications(input: $input) {
      edges {
        node {
          ...NotificationFields
        }
      }
      pageInfo {
        endCursor
        hasNextPage
      }
    }
  }
  ${NOTIFICATION_FIELDS}
`;

/** What the bell reads every minute: the newest few notifications and the unread count, in one request. */
export const NOTIFICATION_POLL_QUERY: TypedDocumentNode<NotificationPollQuery, NotificationPollQueryVariables> = gql`
  query NotificationPoll($pageSize: Int!) {
    unreadNotificationCount
    notifications(input: { pageSize: $pageSize }) {
      edges {
        node {
          ...NotificationFields
        }
      }
    }
  }
  ${NOTIFICATION_FIELDS}
`;

export const NOTIFICATION_COUNTS_QUERY: TypedDocumentNode<NotificationCountsQuery, NotificationCountsQueryVariables> = gql`
  query NotificationCounts {
    notificationCounts {
      unread
      inbox
      archived
    }
  }
`;

export const NOTIFICATION_PREFERENCES_QUERY: TypedDocumentNode<
  NotificationPreferencesQuery,
  NotificationPreferencesQueryVariables
> = gql`
  query NotificationPreferences {
    notificationPreferences {
      topic
      channels {
        name
        enabled
      }
    }
  }
`;

export const PUT_NOTIFICATION_PREFERENCES: TypedDocumentNode<
  PutNotificationPreferencesMutation,
  PutNotificationPreferencesMutationVariables
> = gql`
  mutation PutNotificationPreferences($input: PutNotificationPreferencesInput!) {
    putNotificationPreferences(input: $input) {
      topic
      channels {
        name
        enabled
      }
    }
  }
`;

export const UPDATE_NOTIFICATION: TypedDocumentNode<UpdateNotificationMutation, UpdateNotificationMutationVariables> = gql`
  mutation UpdateNotification($input: UpdateNotificationInput!) {
    updateNotification(input: $input) {
      ...NotificationFields
    }
  }
  ${NOTIFICATION_FIELDS}
`;

export const UPDATE_USER_NOTIFICATIONS: TypedDocumentNode<
  UpdateUserNotificationsMutation,
  UpdateUserNotificationsMutationVariables
> = gql`
  mutation UpdateUserNotifications($input: UpdateUserNotificationsInput!) {
    updateUserNotifications(input: $input) {
      updated
    }
  }
`;
