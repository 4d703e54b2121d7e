import { useDocumentTitle } from '@mantine/hooks';

/** Names the browser tab after the page: "Sign in · Caracal". */
export function usePageTitle(page: string): void {
  useDocumentTitle(`${page} · Caracal`);
}
