// Inline filters: the 'Add Filter' sidesheet (from a detection or an alert) and what it reads and saves.
export {
  AddFilterDrawer,
  alertTestName,
  FILTERS_SAVE_FAILED,
  FILTERS_SAVED,
  NO_EVENTS,
  type AddFilterDrawerProps,
} from './AddFilterDrawer';
export { TuneDetectionButton } from './TuneDetectionButton';
export {
  InlineFilterServicesContext,
  useInlineFilterServices,
  type FilterDetection,
  type InlineFilterServices,
  type InlineFilterSource,
} from './services';
