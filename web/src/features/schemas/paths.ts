export const SCHEMAS_PATH = '/configure/schemas/';
export const NEW_SCHEMA_PATH = '/configure/schemas/new/';
export const schemaPath = (name: string) => `${SCHEMAS_PATH}${encodeURIComponent(name)}/`;
export const editSchemaPath = (name: string) => `${schemaPath(name)}edit/`;
