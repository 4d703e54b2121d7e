// The auth area's door: who calls (Caller, read fresh on every request) and the one guard every GraphQL
// operation goes through, enforcing core's permission map (core/permissions/operations.ts).
export { actorName, type Caller } from './caller';
export { authorize } from './guard';
