// Where the log source screens live.
export const LOG_SOURCES_PATH = '/configure/log-sources/';
export const ADD_SOURCE_PATH = `${LOG_SOURCES_PATH}add-new-source/`;
export const sourcePath = (id: string) => `${LOG_SOURCES_PATH}${encodeURIComponent(id)}/`;
export const editSourcePath = (id: string) => `${sourcePath(id)}edit/`;
