// Detection formats, the panther-analysis layout model and the correlation-rule evaluator.
export * from './formats';
export * from './layout';
export * from './correlation';
export * from './match-expressions';
export { check, isRecord, type Shape, type ObjectShape } from './shape';
export * from './engine-content';
export * from './save-checks';
export * from './scheduled-query';
export * from './schedule';
export * from './list';
