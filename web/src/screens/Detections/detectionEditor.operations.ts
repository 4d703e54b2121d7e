// The detection editor's Apollo operations: one detection with its versions, saving, restoring, the unit tests
// and "Test against data" on the server, and what the form offers (log types, global helpers, destinations).
import { gql } from '@apollo/client';

export const DETECTION_FIELDS = gql`
  fragment EditorDetectionFields on Detection {
    id
    analysisType
    displayName
    enabled
    severity
    logTypes
    tags
    isSimpleDetection
    managed
    yaml
    body
    versionId
    createdAt
    createdBy
    lastModified
    lastModifiedBy
  }
`;

export const EDITOR_DETECTION_QUERY = gql`
  ${DETECTION_FIELDS}
  query EditorDetection($id: ID!) {
    detection(id: $id) {
      ...EditorDetectionFields
    }
  }
`;

export const DETECTION_VERSIONS_QUERY = gql`
  query EditorDetectionVersions($id: ID!) {
    detectionVersions(id: $id) {
      version
      enabled
      lastModified
      lastModifiedBy
    }
  }
`;

export const DETECTION_VERSION_QUERY = gql`
  query EditorDetectionVersion($id: ID!, $version: Int!) {
    detectionVersion(id: $id, version: $version) {
      id
      versionId
      yaml
      body
    }
  }
`;

export const CREATE_DETECTION_MUTATION = gql`
  ${DETECTION_FIELDS}
  mutation EditorCreateDetection($input: SaveDetectionInput!) {
    createDetection(input: $input) {
      ...EditorDetectionFields
    }
  }
`;

export const UPDATE_DETECTION_MUTATION = gql`
  ${DETECTION_FIELDS}
  mutation EditorUpdateDetection($input: SaveDetectionInput!) {
    updateDetection(input: $input) {
      ...EditorDetectionFields
    }
  }
`;

export const SET_ENABLED_MUTATION = gql`
  ${DETECTION_FIELDS}
  mutation EditorSetDetectionEnabled($input: SetDetectionEnabledInput!) {
    setDetectionEnabled(input: $input) {
      ...EditorDetectionFields
    }
  }
`;

export const RESTORE_VERSION_MUTATION = gql`
  ${DETECTION_FIELDS}
  mutation EditorRestoreDetectionVersion($input: RestoreDetectionVersionInput!) {
    restoreDetectionVersion(input: $input) {
      ...EditorDetectionFields
    }
  }
`;

export const RUN_TESTS_MUTATION = gql`
  mutation EditorRunDetectionTests($input: RunDetectionTestsInput!) {
    runDetectionTests(input: $input) {
      message
      results {
        name
        passed
        error
        output
        stdout
        functions {
          name
          output
          error
        }
      }
    }
  }
`;

export const TEST_AGAINST_DATA_MUTATION = gql`
  mutation EditorTestDetectionAgainstData($input: TestDetectionAgainstDataInput!) {
    testDetectionAgainstData(input: $input) {
      scanned
      matchedCount
      capped
      errorCount
      firstError
      logTypes
      matches {
        logType
        eventTime
        title
        dedup
        severity
        event
      }
    }
  }
`;

export const EDITOR_OPTIONS_QUERY = gql`
  query EditorOptions {
    schemas(input: {}) {
      edges {
        node {
          name
        }
      }
    }
    detections(input: { types: [GLOBAL], pageSize: 999 }) {
      edges {
        node {
          id
        }
      }
    }
  }
`;

export const EDITOR_DESTINATIONS_QUERY = gql`
  query EditorDestinations {
    destinations {
      id
      outputType
      displayName
      defaultForSeverity
      alertTypes
      logTypes
    }
  }
`;

export const DETECTION_RUNS_QUERY = gql`
  query DetectionRuns($id: ID!) {
    detectionRuns(id: $id) {
      startedAt
      finishedAt
      runAt
      windowStart
      rows
      matches
      alerts
      error
    }
  }
`;
