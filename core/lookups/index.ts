// Lookup tables and enrichment providers: pure rules shared by functions and web.
export * from './access';
export * from './cidr';
export * from './data';
export * from './enrich';
export * from './model';
export * from './selectors';
