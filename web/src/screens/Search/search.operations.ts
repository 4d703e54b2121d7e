import { gql, type TypedDocumentNode } from '@apollo/client';
import type {
  CancelSearchMutation,
  CancelSearchMutationVariables,
  DeleteSavedSearchMutation,
  DeleteSavedSearchMutationVariables,
  IndicatorSearchQuery,
  IndicatorSearchQueryVariables,
  LakeCatalogQuery,
  LakeCatalogQueryVariables,
  RunSearchMutation,
  RunSearchMutationVariables,
  SaveSearchMutation,
  SaveSearchMutationVariables,
  SavedSearchQuery,
  SavedSearchQueryVariables,
  SavedSearchesQuery,
  SavedSearchesQueryVariables,
  SearchHistoryQuery,
  SearchHistoryQueryVariables,
  SearchQuery,
  SearchQueryVariables,
  SearchResultsQuery,
  SearchResultsQueryVariables,
  UpdateSavedSearchMutation,
  UpdateSavedSearchMutationVariables,
} from '../../lib/graphql/types';

const SEARCH_FIELDS = gql`
  fragment SearchFields on Search {
    id
    mode
    query
    sql
    status
    error
    createdAt
    finishedAt
    timeRangeFrom
    timeRangeTo
    rowCount
    bytesScanned
    elapsedMs
    columns {
      name
      type
    }
    visualization
  }
`;

const SAVED_SEARCH_FIELDS = gql`
  fragment SavedSearchFields on SavedSearch {
    id
    name
    description
    tags
    mode
    query
    builder
    defaultTimeRange
    createdBy
    createdAt
    updatedAt
    revision
  }
`;

export const SEARCH_QUERY: TypedDocumentNode<SearchQuery, SearchQueryVariables> = gql`
  ${SEARCH_FIELDS}
  query Search($id: ID!) {
    search(id: $id) {
      ...SearchFields
    }
  }
`;

export const SEARCH_RESULTS_QUERY: TypedDocumentNode<SearchResultsQuery, SearchResultsQueryVariables> = gql`
  query SearchResults($input: SearchResultsInput!) {
    searchResults(input: $input) {
      columns {
        name
        type
      }
      rows
      cursor
    }
  }
`;

export const LAKE_CATALOG_QUERY: TypedDocumentNode<LakeCatalogQuery, LakeCatalogQueryVariables> = gql`
  query LakeCatalog {
    lakeCatalog {
      name
      tables {
        name
        logType
        columns {
          name
          type
        }
      }
    }
  }
`;

export const SEARCH_HISTORY_QUERY: TypedDocumentNode<SearchHistoryQuery, SearchHistoryQueryVariables> = gql`
  ${SEARCH_FIELDS}
  query SearchHistory($input: SearchHistoryInput!) {
    searchHistory(input: $input) {
      edges {
        cursor
        node {
          ...SearchFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export const SAVED_SEARCHES_QUERY: TypedDocumentNode<SavedSearchesQuery, SavedSearchesQueryVariables> = gql`
  ${SAVED_SEARCH_FIELDS}
  query SavedSearches($input: SavedSearchesInput!) {
    savedSearches(input: $input) {
      edges {
        cursor
        node {
          ...SavedSearchFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export const SAVED_SEARCH_QUERY: TypedDocumentNode<SavedSearchQuery, SavedSearchQueryVariables> = gql`
  ${SAVED_SEARCH_FIELDS}
  query SavedSearch($id: ID!) {
    savedSearch(id: $id) {
      ...SavedSearchFields
    }
  }
`;

export const INDICATOR_SEARCH_QUERY: TypedDocumentNode<IndicatorSearchQuery, IndicatorSearchQueryVariables> = gql`
  ${SEARCH_FIELDS}
  query IndicatorSearch($input: IndicatorSearchInput!) {
    indicatorSearch(input: $input) {
      ...SearchFields
    }
  }
`;

export const RUN_SEARCH_MUTATION: TypedDocumentNode<RunSearchMutation, RunSearchMutationVariables> = gql`
  ${SEARCH_FIELDS}
  mutation RunSearch($input: RunSearchInput!) {
    runSearch(input: $input) {
      ...SearchFields
    }
  }
`;

export const CANCEL_SEARCH_MUTATION: TypedDocumentNode<CancelSearchMutation, CancelSearchMutationVariables> = gql`
  ${SEARCH_FIELDS}
  mutation CancelSearch($id: ID!) {
    cancelSearch(id: $id) {
      ...SearchFields
    }
  }
`;

export const SAVE_SEARCH_MUTATION: TypedDocumentNode<SaveSearchMutation, SaveSearchMutationVariables> = gql`
  ${SAVED_SEARCH_FIELDS}
  mutation SaveSearch($input: SaveSearchInput!) {
    saveSearch(input: $input) {
      ...SavedSearchFields
    }
  }
`;

export const UPDATE_SAVED_SEARCH_MUTATION: TypedDocumentNode<UpdateSavedSearchMutation, UpdateSavedSearchMutationVariables> = gql`
  ${SAVED_SEARCH_FIELDS}
  mutation UpdateSavedSearch($input: UpdateSavedSearchInput!) {
    updateSavedSearch(input: $input) {
      ...SavedSearchFields
    }
  }
`;

export const DELETE_SAVED_SEARCH_MUTATION: TypedDocumentNode<DeleteSavedSearchMutation, DeleteSavedSearchMutationVariables> = gql`
  mutation DeleteSavedSearch($id: ID!) {
    deleteSavedSearch(id: $id) {
      id
    }
  }
`;
