// The simple-detection builder's model: conditions and and/or groups read from and written to the match
// expressions of a Detection or InlineFilters list, the operators each field type offers, value checks, the
// fields a condition can target, and the match-expression language evaluated in TypeScript.
export * from './operators';
export * from './values';
export * from './model';
export * from './document';
export * from './fields';
export { compileExpression, compileExpressions, MatchExpressionError, type Predicate } from './evaluate';
