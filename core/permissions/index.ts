export * from './permissions';
export * from './check';
export * from './operations';
export * from './grants';
