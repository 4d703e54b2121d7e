// Every area's resolvers in one map, typed by the contract: an operation of graphql/*.graphql without a
// resolver here does not compile. An area keeps its resolvers in its own module (or folder) and adds one line here.
import { alertResolvers } from './alerts';
import { appConfig } from './app-config';
import { deliveryResolvers } from './delivery';
import { demoResolvers } from './demo';
import { destinationResolvers } from './destinations';
import { detectionResolvers } from './detections';
import { filterResolvers } from './detections/filters';
import { feedbackResolvers } from './feedback';
import { logSourceResolvers } from './log-sources';
import { lookupResolvers } from './lookups';
import { me } from './me';
import { notificationResolvers } from './notifications';
import { pipelineResolvers } from './pipeline';
import { settingsResolvers } from './settings';
import { schemaResolvers } from './schemas';
import { searchResolvers } from './search';
import { runResolvers } from './runs';
import type { Operation, Resolvers } from './types';
import { usersResolvers } from './users';

export const resolvers: Resolvers<Operation> = {
  'Query.me': me,
  'Query.appConfig': appConfig,
  ...usersResolvers,
  ...notificationResolvers,
  ...settingsResolvers,
  ...feedbackResolvers,
  ...logSourceResolvers,
  ...detectionResolvers,
  ...filterResolvers,
  ...alertResolvers,
  ...demoResolvers,
  ...pipelineResolvers,
  ...schemaResolvers,
  ...destinationResolvers,
  ...deliveryResolvers,
  ...searchResolvers,
  ...lookupResolvers,
  ...runResolvers,
};
