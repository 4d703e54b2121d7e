import type { ReactNode } from 'react';
import { InlineFilterServicesContext } from '../../features/detections/filters/services';
import { FilterFieldsSource } from '../../features/detections/simple/fieldsSource';
import { useFilterFields } from './useFilterFields';
import { INLINE_FILTER_SERVICES } from './useInlineFilter';

/**
 * Gives the simple-detection builder its fields and the 'Add Filter' sidesheet its reads and save, over the
 * API, to every page below it (the detection editor and the alert page mount them).
 */
export function InlineFilterProvider({ children }: { readonly children: ReactNode }) {
  return (
    <FilterFieldsSource.Provider value={useFilterFields}>
      <InlineFilterServicesContext.Provider value={INLINE_FILTER_SERVICES}>{children}</InlineFilterServicesContext.Provider>
    </FilterFieldsSource.Provider>
  );
}
