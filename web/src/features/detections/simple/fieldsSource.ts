// Where the builder's fields come from: the screens provide a hook reading the filterFields query (features
// render from props and do not fetch); without a provider the builder offers no list and takes typed targets.
import { createContext, useContext } from 'react';
import type { FilterFieldsState } from './fields';

export type UseFilterFields = (logTypes: readonly string[]) => FilterFieldsState;

const NO_FIELDS: FilterFieldsState = { fields: [], loading: false };
const noSource: UseFilterFields = () => NO_FIELDS;

export const FilterFieldsSource = createContext<UseFilterFields>(noSource);

/** The fields of the log types, from the provided source. */
export function useProvidedFilterFields(logTypes: readonly string[]): FilterFieldsState {
  const useFields = useContext(FilterFieldsSource);
  return useFields(logTypes);
}
