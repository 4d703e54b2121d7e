// Alert destinations: the catalogue of types and their fields, validation shared by the API and the forms, and
// resolution (which destinations an alert goes to).
export * from './types';
export * from './validation';
export * from './resolution';
