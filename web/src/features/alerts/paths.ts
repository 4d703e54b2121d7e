export const ALERTS_PATH = '/alerts-and-errors/';
export const alertPath = (id: string) => `${ALERTS_PATH}${encodeURIComponent(id)}/`;
