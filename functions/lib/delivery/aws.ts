// The AWS clients delivery sends through (SNS topics and SQS queues of destinations, in their own regions).
import { sns, sqsIn } from '../clients';
import { ENV, requireEnv } from '../env';

export const awsClients = {
  sns,
  sqs: sqsIn,
  /** The function's own region, for a queue URL that names none (the local stand-in's). */
  defaultRegion: () => requireEnv(ENV.awsRegion),
};
