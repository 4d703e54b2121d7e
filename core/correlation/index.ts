// Correlation rules' evaluation: one evaluator for unit tests and scheduled runs, with its trace (what
// each signal satisfied, which transitions held or expired, where evaluation stopped) for the editor's
// step-by-step view. Validation and parsing of the `Detection` body live in core/detections/correlation.ts.
export * from './evaluate';
