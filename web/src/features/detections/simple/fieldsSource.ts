// Where the builder's fields come from: the screens provide a hook reading the filterFields query (features
// render from props and do not fetch); without a provider the builder offers no list and takes typed targets.
import { createContext, useContext } from 'react';
import type { FilterFieldsState } from './fields';

/** The fields of the log types; with showUnsafeTypes also those of unsafe types (objects, json). */
export type UseFilterFields = (logTypes: readonly string[], showUnsafeTypes?: boolean) => FilterFieldsState;

const NO_FIELDS: FilterFieldsState = { fields: [], loading: false };
const noSource: UseFilterFields = () => NO_FIELDS;

export const FilterFieldsSource = createContext<UseFilterFields>(noSource);

/** The fields of the log types, from the provided source. */
export function useProvidedFilterFields(logTypes: readonly string[], showUnsafeTypes = false): FilterFieldsState {
  const useFields = useContext(FilterFieldsSource);
  return useFields(logTypes, showUnsafeTypes);
}
