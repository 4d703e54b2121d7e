// The demo button: the demo function creates the demo sources when they are missing and sends a round of demo
// events through the ingest paths.
import { requestDemoEvents } from '../../../lib/demo';
import { defineResolvers } from '../types';

export const demoResolvers = defineResolvers({
  'Mutation.generateDemoEvents': () => requestDemoEvents(),
});
