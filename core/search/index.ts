// Search's pure rules: read-only SQL, time ranges and their partition filters, the builder's SQL.
export * from './sql/guard';
export * from './time-range';
export * from './builder';
export * from './lake-tables';
export * from './athena-values';
