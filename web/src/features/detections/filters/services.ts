// What the 'Add Filter' sidesheet reads and saves, provided by the screens (features render from props and do
// not fetch): the detection, the alert's events, and saving the detection's new YAML as a new version.
import { createContext, useContext } from 'react';

export interface FilterDetection {
  readonly id: string;
  readonly displayName: string | null;
  readonly logTypes: readonly string[];
  readonly managed: boolean;
  /** Its YAML document. */
  readonly yaml: string;
  readonly versionId: number;
  /** Inline filters apply to rules (and scheduled rules) only. */
  readonly isRule: boolean;
}

export interface InlineFilterSource {
  readonly detection: FilterDetection | null;
  readonly loading: boolean;
  readonly error?: string;
  /** The alert's events (decoded JSON); undefined without an alert or until loaded. */
  readonly events?: readonly unknown[];
  readonly eventsLoading: boolean;
  readonly eventsError?: string;
  /** More events exist than were read. */
  readonly moreEvents: boolean;
}

export interface InlineFilterServices {
  /** The detection and (with an alert) its events; nothing is read while `skip`. */
  readonly useSource: (detectionId: string, alertId: string | undefined, skip: boolean) => InlineFilterSource;
  /** Saves a detection's YAML as a new version of `versionId`; rejects with the server's messages. */
  readonly useSave: () => (input: { yaml: string; versionId: number }) => Promise<void>;
}

export const InlineFilterServicesContext = createContext<InlineFilterServices | null>(null);

export const useInlineFilterServices = () => useContext(InlineFilterServicesContext);
