// Which detections use a global helper, a data model or a scheduled query: a helper is used by the Python
// detections that import it, a data model by the rules whose log types it covers and that call udm()
// (event.udm), a scheduled query by the scheduled rules that name it. Deleting one while it is used is
// refused with InUse, naming the users.
import { callsDataModel, importsModule } from '../../../core/detections';
import { ApiError } from '../errors';
import type { StoredDetection, StoredType } from './model';
import { allOfType } from './repository';

const PYTHON_TYPES: readonly StoredType[] = ['rule', 'scheduled_rule', 'policy', 'global', 'datamodel'];
const UDM_TYPES: readonly StoredType[] = ['rule', 'scheduled_rule'];

/** The ids of the detections (and helpers) that use `item`, a global helper or a data model. */
export async function usersOf(item: Pick<StoredDetection, 'id' | 'type' | 'logTypes'>): Promise<string[]> {
  if (item.type === 'global') {
    const all = (await Promise.all(PYTHON_TYPES.map(allOfType))).flat();
    return all
      .filter((d) => d.id !== item.id && typeof d.body === 'string' && importsModule(d.body, item.id))
      .map((d) => d.id)
      .sort();
  }
  if (item.type === 'datamodel') {
    const all = (await Promise.all(UDM_TYPES.map(allOfType))).flat();
    return all
      .filter((d) => d.logTypes.some((t) => item.logTypes.includes(t)))
      .filter((d) => (typeof d.body === 'string' && callsDataModel(d.body)) || callsDataModel(d.yaml))
      .map((d) => d.id)
      .sort();
  }
  if (item.type === 'scheduled_query') {
    return (await allOfType('scheduled_rule'))
      .filter((d) => Array.isArray(d.spec.ScheduledQueries) && d.spec.ScheduledQueries.includes(item.id))
      .map((d) => d.id)
      .sort();
  }
  return [];
}

const ROUTED_TYPES: readonly StoredType[] = ['rule', 'scheduled_rule', 'policy', 'correlation_rule'];

/** The ids of the detections whose destination overrides (OutputIds) name `destinationId`. */
export async function detectionsRoutingTo(destinationId: string): Promise<string[]> {
  const all = (await Promise.all(ROUTED_TYPES.map(allOfType))).flat();
  return all
    .filter((d) => Array.isArray(d.spec.OutputIds) && d.spec.OutputIds.includes(destinationId))
    .map((d) => d.id)
    .sort();
}

/** Names the detections using a helper or data model, shown when its deletion is refused. */
export const inUseMessage = (item: Pick<StoredDetection, 'id' | 'type'>, users: readonly string[]) =>
  `${item.type === 'global' ? 'Global helper' : item.type === 'scheduled_query' ? 'Scheduled query' : 'Data model'} ${item.id} is used by ${users.join(', ')}; remove those uses first`;

/** Refuses (InUse) to delete a global helper, data model or scheduled query that detections use. */
export async function refuseDeleteInUse(item: Pick<StoredDetection, 'id' | 'type' | 'logTypes'>): Promise<void> {
  const users = await usersOf(item);
  if (users.length) throw new ApiError('InUse', inUseMessage(item, users));
}
