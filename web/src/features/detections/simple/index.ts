// Simple detections in the browser: the Rule Builder and YAML editor (in sync both ways) and the condition
// builder inline filters share.
export { SimpleDetectionEditor, type SimpleDetectionEditorProps } from './SimpleDetectionEditor';
export { ConditionBuilder, conditionProblem, fieldTypes } from './ConditionBuilder';
export { FILTERS_LOAD_ERROR, type FilterFieldOption, type FilterFieldsState } from './fields';
export { FilterFieldsSource, useProvidedFilterFields, type UseFilterFields } from './fieldsSource';
